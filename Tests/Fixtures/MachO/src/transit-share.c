/* The share extension binary of the ATS fixture .ipa (TransitShare): its own Info.plist
 * allows insecure HTTP to uploads.transit-data.com only, so the legacy host the app may reach
 * over HTTP is blocked here. */
extern int puts(const char *);

static const char *const endpoints[] = {
    "http://uploads.transit-data.com/inbox",
    "http://legacy.transit-data.com/upload",
};

int main(int argc, char **argv) {
    (void)argv;
    return puts(endpoints[(unsigned)argc % 2u]);
}
