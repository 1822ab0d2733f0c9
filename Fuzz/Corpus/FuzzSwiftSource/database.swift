import Foundation
import GRDB

func store(token: String, db: Database) throws {
    try db.execute(sql: "INSERT INTO auth (token) VALUES ('\(token)')")
    try db.execute(sql: "UPDATE auth SET token = ?", arguments: [token])
    try db.execute(literal: "INSERT INTO t VALUES (\(token))")
}
