/* The app binary of the ATS fixture .ipa (Transit): plain-HTTP endpoints as C strings. The
 * app's Info.plist allows insecure HTTP to legacy.transit-data.com only; ATS blocks
 * api.transit-data.com; the XML namespace and the local printer are not network traffic ATS
 * governs. */
extern int puts(const char *);

static const char *const endpoints[] = {
    "http://legacy.transit-data.com/stops.json",
    "http://api.transit-data.com/v2/routes",
    "https://secure.transit-data.com/v2/account",
    "http://www.w3.org/2000/svg",
    "http://printer.local/queue",
};

int main(int argc, char **argv) {
    (void)argv;
    return puts(endpoints[(unsigned)argc % 5u]);
}
