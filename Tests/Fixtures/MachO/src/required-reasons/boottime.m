// Measures elapsed time with mach_absolute_time() and -[NSProcessInfo systemUptime]:
// NSPrivacyAccessedAPICategorySystemBootTime.
#include "../objc-decls.h"
extern unsigned long long mach_absolute_time(void);

@interface NSProcessInfo : NSObject
+ (NSProcessInfo *)processInfo;
- (double)systemUptime;
@end

int main(void) {
    unsigned long long start = mach_absolute_time();
    double uptime = [[NSProcessInfo processInfo] systemUptime];
    return (int)(start + (unsigned long long)uptime);
}
