[NSURL URLWithString:@"http://cdn.acme.com/a.mp4"]; /* http://x.acme.com */
#ifdef DEBUG
NSString *d = @"http://debug.acme.com";
#endif
