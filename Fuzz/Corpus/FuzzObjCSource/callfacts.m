#import <LocalAuthentication/LocalAuthentication.h>
#import <SAMKeychain/SAMKeychain.h>

@implementation Lock
- (void)unlock {
    [SAMKeychain setAccessibilityType:flag ? kSecAttrAccessibleAlways : kSecAttrAccessibleAfterFirstUnlock];
    store.accessibility = UICKeyChainStoreAccessibilityAlways;
    UICKeyChainStore *s = [UICKeyChainStore keyChainStoreWithService:@"s" accessGroup:@"ABCDE12345.g"];
    [[LAContext new] evaluatePolicy:LAPolicyDeviceOwnerAuthenticationWithBiometrics localizedReason:@"r"
                              reply:^(BOOL success, NSError * _Nullable error) { if (success) { [self open]; } }];
}
@end
