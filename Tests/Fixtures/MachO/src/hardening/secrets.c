// Secrets: C strings with a GitHub token and a Slack bot token (made-up values of the right
// shape) for shipped_secret, a react-native-config style name/value pair, and a PEM header
// constant without a key, which is not a secret.
extern int puts(const char *);

static const char *const config[] = {"PAYMENT_API_KEY", "Vb7Tn2Qw9Lk4Xs8Rm3Jd6Hf1", "PAYMENT_HOST", "https://pay.example.com"};

int main(int argc, char **argv) {
    const char *token = "ghp_u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d";
    const char *slack = "xoxb-97971147104-974650752917-dnXsiVpzz63FfkCzJr4i0B3J";
    const char *header = "-----BEGIN PRIVATE KEY-----";
    puts(argc > 3 ? config[argc & 3] : argc > 2 ? header : argc > 1 ? slack : token);
    return 0;
}
