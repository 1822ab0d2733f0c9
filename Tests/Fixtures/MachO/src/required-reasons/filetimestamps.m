// Reads a file's modification time with stat() and its creation date through
// NSFileCreationDate: NSPrivacyAccessedAPICategoryFileTimestamp.
#include "../objc-decls.h"
struct stat_stub { long fields[18]; };
extern int stat(const char *path, struct stat_stub *buf);
extern NSString *const NSFileCreationDate;

int main(void) {
    struct stat_stub info;
    int status = stat("/tmp/x", &info);
    NSLog(NSFileCreationDate);
    return status;
}
