// Fixture framework binary: a tiny dylib with one exported function and one import.
extern int puts(const char *);

int mykit_answer(void) {
    puts("MyKit says hello");
    return 42;
}
