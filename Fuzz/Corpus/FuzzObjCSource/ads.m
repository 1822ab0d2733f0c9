// An SDK-style binary that reads the advertising identifier and never asks for App
// Tracking Transparency (fixture for advertising_identifier_without_att), and that still
// asks UIDevice for the removed uniqueIdentifier (UDID, fixture for udid_access).
#include "objc-decls.h"

@interface NSUUID : NSObject
- (NSString *)UUIDString;
@end

@interface ASIdentifierManager : NSObject
+ (ASIdentifierManager *)sharedManager;
- (NSUUID *)advertisingIdentifier;
@end

@interface UIDevice (Removed)
- (NSString *)uniqueIdentifier;
@end

int main(void) {
    NSLog([[UIDevice currentDevice] uniqueIdentifier]);
    NSString *idfa = [[[ASIdentifierManager sharedManager] advertisingIdentifier] UUIDString];
    NSLog(idfa);
    return 0;
}
