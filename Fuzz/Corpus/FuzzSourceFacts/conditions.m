#import <AVFoundation/AVFoundation.h>
#define LEVEL 3
#if defined(DEBUG) && (LEVEL << 2) > 0x0B || __has_include(<Photos/Photos.h>)
static NSString *s = @"[AVCaptureDevice requestAccessForMediaType:]"; // not a call
#elif !defined(FEATURE) ? 1 : (FEATURE % 2 == 0 ? 0b1 : 07)
/* [CLLocationManager new] */
#else
#endif
#ifdef TARGET_OS_SIMULATOR
char c = '\'';
#endif
@implementation Camera
- (void)ask {
    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {}];
    CLLocationManager *m = [[CLLocationManager alloc] init];
    [m requestWhenInUseAuthorization];
    [PHPhotoLibrary requestAuthorizationForAccessLevel:PHAccessLevelAddOnly handler:^(PHAuthorizationStatus s) {}];
    ABAddressBookRef book = ABAddressBookCreateWithOptions(NULL, NULL); \
}
@end
