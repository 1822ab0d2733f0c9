// Stores a keychain item with the deprecated kSecAttrAccessibleAlways class
// (keychain_accessible_always): the binary imports _kSecAttrAccessibleAlways.
#include "../objc-decls.h"

typedef const void *CFTypeRef;
typedef const struct __CFDictionary *CFDictionaryRef;
extern const CFTypeRef kSecAttrAccessible;
extern const CFTypeRef kSecAttrAccessibleAlways;
extern CFDictionaryRef CFDictionaryCreate(void *, const void **, const void **, long, const void *, const void *);
extern int SecItemAdd(CFDictionaryRef, CFTypeRef *);

int main(void) {
    const void *keys[] = { kSecAttrAccessible };
    const void *values[] = { kSecAttrAccessibleAlways };
    return SecItemAdd(CFDictionaryCreate(0, keys, values, 1, 0, 0), 0);
}
