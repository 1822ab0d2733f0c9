// Minimal hand-written declarations (no SDK on Linux): just enough for clang to emit
// real Objective-C class references, selector references and C imports.
typedef signed char BOOL;
typedef long NSInteger;
@class NSString;
extern void NSLog(NSString *format, ...);
extern void *objc_autoreleasePoolPush(void);
extern void objc_autoreleasePoolPop(void *pool);

__attribute__((objc_root_class))
@interface NSObject { void *isa; }
+ (instancetype)alloc;
+ (instancetype)new;
- (instancetype)init;
@end

@interface UIDevice : NSObject
+ (UIDevice *)currentDevice;
- (NSString *)systemVersion;
@end

@interface CLLocationManager : NSObject
- (void)requestWhenInUseAuthorization;
- (void)startUpdatingLocation;
@end

typedef NSString *AVMediaType;
extern AVMediaType const AVMediaTypeVideo;
@interface AVCaptureDevice : NSObject
+ (void)requestAccessForMediaType:(AVMediaType)mediaType completionHandler:(void (^)(BOOL granted))handler;
@end

@interface PHPhotoLibrary : NSObject
+ (NSInteger)authorizationStatus;
@end
