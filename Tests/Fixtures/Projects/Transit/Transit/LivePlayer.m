#import <AVFoundation/AVFoundation.h>
#import <Foundation/Foundation.h>

/* Live departure boards: AVFoundation is not web content, so ATS blocks the stream. */
AVPlayer *TransitLivePlayer(void) {
    return [AVPlayer playerWithURL:[NSURL URLWithString:@"http://video.transit-data.com/live.m3u8"]];
}

NSURLSessionDataTask *TransitAlertsTask(void) {
    NSURLRequest *request = [NSURLRequest requestWithURL:[NSURL URLWithString:@"http://legacy.transit-data.com/alerts"]];
    return [[NSURLSession sharedSession] dataTaskWithRequest:request];
}

NSString *const TransitTilesTemplate = @"http://tiles.transit-data.com/{z}/{x}/{y}.png";
