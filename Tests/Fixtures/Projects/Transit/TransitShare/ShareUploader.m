#import <Foundation/Foundation.h>

/* Objective-C half of the share extension: the app's exception does not reach it. */
NSURLSessionDataTask *TransitShareAlerts(void) {
    return [[NSURLSession sharedSession] dataTaskWithURL:[NSURL URLWithString:@"http://legacy.transit-data.com/share-alerts"]];
}

NSString *const TransitShareFallback = @"http://api.transit-data.com/v2/share";
