// Lists the active keyboards with +[UITextInputMode activeInputModes]:
// NSPrivacyAccessedAPICategoryActiveKeyboards.
#include "../objc-decls.h"

@interface UITextInputMode : NSObject
+ (id)activeInputModes;
@end

int main(void) {
    return [UITextInputMode activeInputModes] != 0;
}
