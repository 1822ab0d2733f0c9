/* A plain-C extension binary that records audio with Audio Queue Services and saves an image
 * to the photo library: protected resources reached through C functions only (fixture for
 * the binary evidence of missing_purpose_string). */
#include <stddef.h>

typedef int OSStatus;
typedef void *AudioQueueRef;
extern OSStatus AudioQueueNewInput(const void *format, void *callback, void *userData,
                                   void *runLoop, void *runLoopMode, unsigned flags, AudioQueueRef *outQueue);
extern OSStatus AudioQueueStart(AudioQueueRef queue, const void *startTime);
extern void UIImageWriteToSavedPhotosAlbum(void *image, void *target, void *selector, void *context);

int main(void) {
    AudioQueueRef queue = NULL;
    if (AudioQueueNewInput(NULL, NULL, NULL, NULL, NULL, 0, &queue) == 0) {
        AudioQueueStart(queue, NULL);
    }
    UIImageWriteToSavedPhotosAlbum(NULL, NULL, NULL, NULL);
    return 0;
}
