// Fixture app: an iOS executable that uses Objective-C classes and selectors from
// Foundation, UIKit, CoreLocation, AVFoundation and (weak-linked) Photos, C functions from
// libSystem, and a function from the MyKit framework found through @rpath.
#include "objc-decls.h"

extern int printf(const char *, ...);
extern char *getenv(const char *);
extern unsigned long strlen(const char *);
extern int mykit_answer(void);

@interface AppDelegate : NSObject
- (void)startLocation;
@end

@implementation AppDelegate {
    CLLocationManager *_manager;
}
- (instancetype)init {
    self = [super init];
    return self;
}
- (void)startLocation {
    _manager = [CLLocationManager new];
    [_manager requestWhenInUseAuthorization];
    [_manager startUpdatingLocation];
}
@end

int main(int argc, char **argv) {
    void *pool = objc_autoreleasePoolPush();
    AppDelegate *app = [[AppDelegate alloc] init];
    [app startLocation];
    NSLog((NSString *)[[UIDevice currentDevice] systemVersion]);
    [AVCaptureDevice requestAccessForMediaType:AVMediaTypeVideo completionHandler:^(BOOL granted) {
        printf("camera granted: %d\n", (int)granted);
    }];
    printf("photos status: %ld\n", (long)[PHPhotoLibrary authorizationStatus]);
    const char *home = getenv("HOME");
    printf("preflight fixture %lu %d\n", home ? strlen(home) : 0UL, mykit_answer());
    objc_autoreleasePoolPop(pool);
    return 0;
}
