// Plain: no function needs a canary (no local arrays, no address-taken locals) and no
// Objective-C or Swift runtime use. Linked without MH_PIE for non_pie_executable.
extern int puts(const char *);

int main(void) {
    puts("plain");
    return 0;
}
