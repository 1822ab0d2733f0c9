import Contacts

/// Imports the people a user splits expenses with. Linked by the DemoApp target.
public struct ContactsImporter {
    public init() {}

    public func importContacts() {
        // CNContactStore().requestAccess(for: .contacts) in a comment never counts.
        let store = CNContactStore()
        store.requestAccess(for: .contacts) { granted, _ in
            print("contacts access: \(granted)")
        }
    }
}
