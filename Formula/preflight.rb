# Homebrew formula, ready for a tap (a repository named homebrew-preflight holding this file as
# Formula/preflight.rb): `brew install preflight-ios/preflight/preflight`, or `--HEAD` for main.
# Builds from source with the toolchain of Xcode (macOS) or Swift (Linux), PostgreSQL store
# included; the release workflow's binaries are the faster route (README, "Install").
class Preflight < Formula
  desc "Audit iOS apps, archives and Xcode projects before App Review does"
  homepage "https://github.com/preflight-ios/preflight"
  url "https://github.com/preflight-ios/preflight.git", tag: "v0.1.0"
  head "https://github.com/preflight-ios/preflight.git", branch: "main"

  depends_on xcode: ["16.3", :build] # Swift 6.1: package traits

  uses_from_macos "sqlite"
  uses_from_macos "zlib"

  def install
    args = ["--disable-sandbox", "--configuration", "release", "--product", "preflight", "--traits", "PostgreSQL,Server"]
    args << "--static-swift-stdlib" if OS.linux?
    system "swift", "build", *args
    bin.install ".build/release/preflight"
    generate_completions_from_executable(bin/"preflight", "--generate-completion-script")
  end

  test do
    app = testpath/"Demo.app"
    app.mkpath
    (app/"Info.plist").write <<~XML
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>CFBundleIdentifier</key><string>com.example.demo</string>
      <key>CFBundleExecutable</key><string>Demo</string>
      <key>NSCameraUsageDescription</key><string></string>
      </dict></plist>
    XML
    output = shell_output("#{bin}/preflight scan #{app} --format json", 2)
    assert_match "placeholder_purpose_string", output
  end
end
