// Syncs a preference through NSUbiquitousKeyValueStore (ubiquity_kvstore_entitlement) and
// writes a file with NSFileProtectionNone (file_protection_none).
#include "../objc-decls.h"

@interface NSUbiquitousKeyValueStore : NSObject
+ (NSUbiquitousKeyValueStore *)defaultStore;
- (void)setBool:(BOOL)value forKey:(NSString *)key;
@end

extern NSString *const NSFileProtectionNone;

int main(void) {
    [[NSUbiquitousKeyValueStore defaultStore] setBool:1 forKey:0];
    NSLog(NSFileProtectionNone);
    return 0;
}
