// An app that registers with APNs (fixture for missing_push_entitlement, ITMS-90078):
// make-fixtures.sh adds entitlements without aps-environment to its ad-hoc signature.
#include "objc-decls.h"

@interface UIApplication : NSObject
+ (UIApplication *)sharedApplication;
- (void)registerForRemoteNotifications;
@end

int main(void) {
    [[UIApplication sharedApplication] registerForRemoteNotifications];
    return 0;
}
