#!/bin/sh
# Regenerates the .mobileprovision fixtures: small inner property lists signed as CMS
# SignedData (DER, content attached) with a throwaway self-signed certificate. The key and
# certificate live in a temporary folder that is deleted afterwards; only the signed
# profiles are committed. Run from anywhere: sh Tests/Fixtures/Provisioning/make-fixtures.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/key.pem" -out "$tmp/cert.pem" \
    -days 3650 -subj "/CN=Preflight Test Signer/O=Preflight Tests" 2>/dev/null

plist() { # name kind-specific-xml entitlements-extra
    cat > "$tmp/$1.plist" <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>AppIDName</key>
	<string>Preflight Sample</string>
	<key>CreationDate</key>
	<date>2024-01-15T10:00:00Z</date>
	<key>Platform</key>
	<array>
		<string>iOS</string>
	</array>
	<key>Entitlements</key>
	<dict>
		<key>application-identifier</key>
		<string>ABCDE12345.com.example.preflight</string>
		<key>com.apple.developer.team-identifier</key>
		<string>ABCDE12345</string>
$3
	</dict>
	<key>ExpirationDate</key>
	<date>2025-01-14T10:00:00Z</date>
	<key>Name</key>
	<string>Preflight $1</string>
$2
	<key>TeamIdentifier</key>
	<array>
		<string>ABCDE12345</string>
	</array>
	<key>TeamName</key>
	<string>Example Team</string>
	<key>UUID</key>
	<string>00000000-0000-4000-8000-00000000000$4</string>
	<key>Version</key>
	<integer>1</integer>
</dict>
</plist>
PLIST
    openssl cms -sign -nodetach -binary -outform DER -in "$tmp/$1.plist" \
        -signer "$tmp/cert.pem" -inkey "$tmp/key.pem" -out "$here/$1.mobileprovision"
}

devices='	<key>ProvisionedDevices</key>
	<array>
		<string>00008030-001A2B3C4D5E6F70</string>
		<string>00008101-000A1B2C3D4E5F60</string>
	</array>'

plist development "$devices" '		<key>get-task-allow</key>
		<true/>' 1
plist adhoc "$devices" '		<key>get-task-allow</key>
		<false/>' 2
plist enterprise '	<key>ProvisionsAllDevices</key>
	<true/>' '		<key>get-task-allow</key>
		<false/>' 3
plist appstore '' '		<key>beta-reports-active</key>
		<true/>' 4

# BER variant of the development profile: constructed OCTET STRING, indefinite lengths.
openssl cms -sign -stream -binary -outform DER -in "$tmp/development.plist" \
    -signer "$tmp/cert.pem" -inkey "$tmp/key.pem" -out "$here/development-ber.mobileprovision"

# Not a property list inside.
printf 'hello, not a plist' > "$tmp/text.txt"
openssl cms -sign -nodetach -binary -outform DER -in "$tmp/text.txt" \
    -signer "$tmp/cert.pem" -inkey "$tmp/key.pem" -out "$here/not-plist.mobileprovision"
