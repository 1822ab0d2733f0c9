import AVFoundation

final class CameraService {
    func start() { AVCaptureDevice.requestAccess(for: .video) { _ in } }
}
