// A legacy web view: an iOS executable that still creates a UIWebView (fixture for
// uiwebview_reference, ITMS-90809), and a simulator framework built from the same C helper.
#include "objc-decls.h"

@interface UIWebView : NSObject
- (void)loadHTMLString:(NSString *)html baseURL:(id)url;
@end

int main(void) {
    UIWebView *web = [UIWebView new];
    [web loadHTMLString:0 baseURL:0];
    return 0;
}
