#!/bin/sh
# Rebuilds the key-store and database fixtures of shipped_private_key_file and
# shipped_user_database (test keys made here, never used anywhere else). Needs openssl, python3.
set -eu
cd "$(dirname "$0")"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out /tmp/preflight-fixture-key.pem 2>/dev/null
openssl req -new -x509 -key /tmp/preflight-fixture-key.pem -subj /CN=preflight-fixture -days 3650 -out /tmp/preflight-fixture-cert.pem
openssl pkcs12 -export -inkey /tmp/preflight-fixture-key.pem -in /tmp/preflight-fixture-cert.pem -passout pass:fixture -out client.p12
openssl pkey -in /tmp/preflight-fixture-key.pem -outform DER -out client-key.der
openssl x509 -in /tmp/preflight-fixture-cert.pem -outform DER -out server-cert.der
rm -f /tmp/preflight-fixture-key.pem /tmp/preflight-fixture-cert.pem
rm -f seed-users.sqlite catalog.sqlite
python3 - <<'PY'
import sqlite3
db = sqlite3.connect('seed-users.sqlite')
db.execute('CREATE TABLE ZUSER (Z_PK INTEGER PRIMARY KEY, ZEMAIL TEXT, ZPASSWORDHASH TEXT)')
db.execute("INSERT INTO ZUSER VALUES (1, 'test@example.com', 'x')")
db.execute('CREATE TABLE ZSETTING (Z_PK INTEGER PRIMARY KEY, ZNAME TEXT)')
db.commit(); db.close()
db = sqlite3.connect('catalog.sqlite')
db.execute('CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT)')
db.execute("INSERT INTO products VALUES (1, 'Tea')")
db.execute('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)')
db.commit(); db.close()
PY
ls -l
