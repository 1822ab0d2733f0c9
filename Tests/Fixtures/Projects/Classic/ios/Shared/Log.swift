import os

let log = Logger(subsystem: "com.example.my-app", category: "app")
