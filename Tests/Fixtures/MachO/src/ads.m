// An SDK-style binary that reads the advertising identifier and never asks for App
// Tracking Transparency (fixture for advertising_identifier_without_att).
#include "objc-decls.h"

@interface NSUUID : NSObject
- (NSString *)UUIDString;
@end

@interface ASIdentifierManager : NSObject
+ (ASIdentifierManager *)sharedManager;
- (NSUUID *)advertisingIdentifier;
@end

int main(void) {
    NSString *idfa = [[[ASIdentifierManager sharedManager] advertisingIdentifier] UUIDString];
    NSLog(idfa);
    return 0;
}
