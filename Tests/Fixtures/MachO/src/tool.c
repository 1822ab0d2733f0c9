// Fixture for the x86_64 simulator slice of the fat file: plain C, libSystem only.
extern int printf(const char *, ...);
extern int atoi(const char *);

int main(int argc, char **argv) {
    printf("x86_64 slice %d\n", argc > 1 ? atoi(argv[1]) : 0);
    return 0;
}
