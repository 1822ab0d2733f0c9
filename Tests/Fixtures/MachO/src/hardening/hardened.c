// Hardened: built with -fstack-protector-strong; a function with a local array gets a
// canary (___stack_chk_guard/___stack_chk_fail). Imports CC_MD5 and CC_SHA1 for a cache key
// and rand() for a shuffle: facts inspect lists, not proof of a weakness.
#include <stddef.h>
extern int printf(const char *, ...);
extern char *strcpy(char *, const char *);
extern unsigned long strlen(const char *);
extern int rand(void);
extern unsigned char *CC_MD5(const void *, unsigned int, unsigned char *);
extern unsigned char *CC_SHA1(const void *, unsigned int, unsigned char *);

static void greet(const char *name) {
    char buffer[64];
    strcpy(buffer, name);
    printf("%s\n", buffer);
}

int main(int argc, char **argv) {
    unsigned char digest[20];
    const char *key = argc > 1 ? argv[1] : "cache";
    CC_MD5(key, (unsigned int)strlen(key), digest);
    CC_SHA1(key, (unsigned int)strlen(key), digest);
    greet(key);
    return rand() % 2 + digest[0];
}
