// Reads a setting from NSUserDefaults: NSPrivacyAccessedAPICategoryUserDefaults.
#include "../objc-decls.h"

@interface NSUserDefaults : NSObject
+ (NSUserDefaults *)standardUserDefaults;
- (BOOL)boolForKey:(NSString *)key;
@end

int main(void) {
    return [[NSUserDefaults standardUserDefaults] boolForKey:0];
}
