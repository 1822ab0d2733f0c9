// Asks for free space with statfs() and NSURLVolumeAvailableCapacityKey:
// NSPrivacyAccessedAPICategoryDiskSpace.
#include "../objc-decls.h"
struct statfs_stub { long fields[40]; };
extern int statfs(const char *path, struct statfs_stub *buf);
extern NSString *const NSURLVolumeAvailableCapacityKey;

int main(void) {
    struct statfs_stub info;
    NSLog(NSURLVolumeAvailableCapacityKey);
    return statfs("/", &info);
}
