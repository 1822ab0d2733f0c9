#import <Foundation/Foundation.h>

@interface Helper : NSObject
@end
