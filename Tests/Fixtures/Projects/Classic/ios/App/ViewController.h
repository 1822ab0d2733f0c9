#import <UIKit/UIKit.h>

@interface ViewController : UIViewController
@end
