public struct SDK {}
