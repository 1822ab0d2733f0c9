import AVFoundation

// Excluded from the Core target (`excludes: [Experimental]`): must never count as its code.
func experimentalCapture() { AVCaptureDevice.requestAccess(for: .video) { _ in } }
