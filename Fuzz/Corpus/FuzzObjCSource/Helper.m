#import "Helper.h"

@implementation Helper
@end
