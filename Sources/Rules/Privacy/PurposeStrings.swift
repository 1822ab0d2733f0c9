import Foundation
import Artifacts
import Evidence
import Formats

/// Shared knowledge of purpose strings for the privacy rules.
enum PurposeStrings {
    static let catalogKeys: Set<String> = Set(ProtectedResourceCatalog.standard.resources.map(\.key))

    static func isPurposeKey(_ key: String) -> Bool {
        catalogKeys.contains(key) || key.hasSuffix("UsageDescription")
    }

    /// Every purpose string a bundle declares, as the built Info.plist will have it.
    static func declared(in bundle: AppBundle) -> [(key: String, value: String?, location: FileLocation)] {
        bundle.infoKeys.filter(isPurposeKey).compactMap { key in
            guard let v = bundle.infoValue(key) else { return nil }
            // Point at the value (what is wrong), else at the key or the generating build setting.
            let at = FileLocation(path: v.location.path, position: v.node.position ?? v.location.position)
            return (key, v.node.string.map(bundle.expandingBuildSettings), at)
        }
    }

    /// Localized values from every `InfoPlist.strings` table and `InfoPlist.xcstrings` catalog
    /// of the bundle (read them through `BundleViews`, computed once per bundle).
    static func localized(in bundle: AppBundle) -> [(language: String, key: String, value: String, location: FileLocation)] {
        var out: [(String, String, String, FileLocation)] = []
        for file in bundle.localizations where file.kind == .infoPlistStrings {
            guard let lang = file.language, let table = bundle.infoPlistStrings[lang] else { continue }
            for e in table.entries where isPurposeKey(e.key) {
                out.append((lang, e.key, e.value, FileLocation(path: file.path, position: e.valuePosition ?? e.keyPosition)))
            }
        }
        for (path, catalog) in bundle.stringCatalogs.sorted(by: { $0.key < $1.key })
        where PathUtil.lastComponent(path) == "InfoPlist.xcstrings" {
            for s in catalog.strings where isPurposeKey(s.key) {
                for l in s.localizations {
                    guard let value = l.value else { continue }
                    out.append((l.language, s.key, value, FileLocation(path: path, position: l.position ?? s.position)))
                }
            }
        }
        return out
    }

    static let placeholders: Set<String> = [
        "todo", "tbd", "fixme", "test", "testing", "description", "placeholder", "xxx", "xx", "x",
        "usage description", "purpose", "purpose string", "n/a", "na", "none", "null", "nil", "string",
        "your description here", "add description", "description here", "enter description", "text",
    ]

    /// Why a purpose string is unusable (empty, placeholder, unresolved), or nil. References
    /// to build settings are only a defect where the settings are known: in built apps and in
    /// Xcode projects (a source folder without a project cannot resolve `$(PRODUCT_NAME)`).
    static func defect(_ value: String, settingsKnown: Bool = false) -> String? {
        let trimmed = String(trimming(value, \.isWhitespace))
        if trimmed.isEmpty { return value.isEmpty ? "is empty" : "is only white space" }
        if hasBuildSettingReference(trimmed) {
            return settingsKnown ? "contains an unresolved build setting (\(trimmed))" : nil
        }
        let folded = String(trimming(trimmed.lowercased()) { $0.isWhitespace || $0.isPunctuation })
        if placeholders.contains(folded) || folded.hasPrefix("lorem ipsum") || folded.hasPrefix("todo:") || folded.hasPrefix("todo ")
            || folded.hasPrefix("fixme") || trimmed.allSatisfy({ $0 == "." || $0 == "-" || $0 == "_" || $0 == "?" }) {
            return "is a placeholder (\"\(trimmed)\")"
        }
        // The key's own name (or Xcode's label for it) copied into the value, as a generated
        // InfoPlist.strings does before anyone translates it.
        if (isPurposeKey(trimmed) && !trimmed.contains(" ")) || (folded.hasPrefix("privacy - ") && folded.hasSuffix("usage description")) {
            return "is the key's name, not a description (\"\(trimmed)\")"
        }
        return nil
    }

    /// The text without the characters at either end that `drop` matches (Foundation's
    /// `trimmingCharacters` goes through NSString on Linux and dominated the rule's time).
    static func trimming(_ text: String, _ drop: (Character) -> Bool) -> Substring {
        guard let first = text.firstIndex(where: { !drop($0) }), let last = text.lastIndex(where: { !drop($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// Whether the text holds a `$(…)` or `${…}` build-setting reference opener.
    static func hasBuildSettingReference(_ text: String) -> Bool {
        var previousIsDollar = false
        for byte in text.utf8 {
            if previousIsDollar, byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{") { return true }
            previousIsDollar = byte == UInt8(ascii: "$")
        }
        return false
    }

    // MARK: - Generic strings

    /// True when the string only says that access is needed, not why: every word is a word that
    /// asks for or announces access, or a word that names the protected resource, in one of the
    /// languages of `vocabularies` ("This app needs access to your camera", "Location",
    /// "openHAB benötigt Zugriff auf deine Kamera."). One word of anything else (a feature, an
    /// action, a benefit: "scan", "QR", "nearby", "upload") and the string passes, so a complete
    /// explanation in any language passes, and so does any string in a language without a
    /// vocabulary (Korean, Japanese, Chinese, …): those are not judged. The app — a word for
    /// "app" or one of `appNames` (the bundle's display name, name, …) — is no purpose either,
    /// except as what is accessed: "Use Face ID to access KeePassium" says what Face ID is for.
    static func isGeneric(_ value: String, appNames: [String] = []) -> Bool {
        isGeneric(value, names: nameWords(appNames))
    }

    /// The lower-case words of the app's names, for `isGeneric(_:names:)`.
    static func nameWords(_ appNames: [String]) -> Set<String> {
        Set(appNames.flatMap { $0.lowercased().split { !$0.isLetter }.map(String.init) })
    }

    static func isGeneric(_ value: String, names: Set<String>) -> Bool {
        let text = hasBuildSettingReference(value) ? withoutBuildSettings(value) : value
        var tokens = LetterRuns(text: text)
        guard let first = tokens.next() else { return false }
        let second = tokens.next()
        // Each word is looked up once: nil stands for the app, else its roles in every
        // vocabulary. A word with no role in any of them decides at once: the string says more.
        var roles: [WordRoles?] = []
        func add(_ token: Substring) -> Bool {
            let w = token.lowercased()
            if names.contains(w) { roles.append(nil); return true }
            guard let r = wordRoles[w] else { return false }
            roles.append(r.isApp ? nil : r)
            return true
        }
        // "openHAB needs …", "DuckDuckGo benötigt …": a name-like first word before a verb of
        // need is the app's name, not a purpose.
        if let second, subjectVerbs.contains(second.lowercased()), looksLikeName(first) {
            guard add(second) else { return false }
        } else {
            guard add(first), second.map(add) ?? true else { return false }
        }
        while let token = tokens.next() { guard add(token) else { return false } }
        return vocabularies.indices.contains { v in
            vocabularies[v].restatesPermission(roles, index: v) && !vocabularies[v].namesPurpose(roles, index: v)
        }
    }

    /// The runs of letters of a text, one at a time (most strings are decided by an early word).
    struct LetterRuns: IteratorProtocol {
        let text: String
        var position: String.Index

        init(text: String) {
            self.text = text
            position = text.startIndex
        }

        mutating func next() -> Substring? {
            guard let start = text[position...].firstIndex(where: \.isLetter) else {
                position = text.endIndex
                return nil
            }
            let end = text[start...].firstIndex { !$0.isLetter } ?? text.endIndex
            position = end
            return text[start..<end]
        }
    }

    /// The roles one word plays in each vocabulary: bit `3v` filler, `3v + 1` resource,
    /// `3v + 2` access, for the vocabulary at index `v`; bit 63: a word for "app" in one of them.
    struct WordRoles: Sendable {
        var bits: UInt64 = 0
        var isApp: Bool { bits & (1 << 63) != 0 }
        func isFiller(_ v: Int) -> Bool { bits & (1 << (3 * v)) != 0 }
        func isResource(_ v: Int) -> Bool { bits & (1 << (3 * v + 1)) != 0 }
        func isAccess(_ v: Int) -> Bool { bits & (1 << (3 * v + 2)) != 0 }
    }

    /// Every vocabulary's words with their roles, so a string's words are hashed once each
    /// (hashing non-ASCII words normalizes them: once per vocabulary was most of the rule's time).
    static let wordRoles: [String: WordRoles] = {
        precondition(vocabularies.count <= 21, "three role bits per vocabulary and one app bit in a UInt64")
        var table: [String: WordRoles] = [:]
        for (v, vocabulary) in vocabularies.enumerated() {
            for w in vocabulary.filler { table[w, default: WordRoles()].bits |= 1 << (3 * v) }
            for w in vocabulary.resources { table[w, default: WordRoles()].bits |= 1 << (3 * v + 1) }
            for w in vocabulary.access { table[w, default: WordRoles()].bits |= 1 << (3 * v + 2) }
            for w in vocabulary.app { table[w, default: WordRoles()].bits |= 1 << 63 }
        }
        return table
    }()

    /// The text with every `$(…)` and `${…}` reference (they stand for the app's name, as in
    /// `$(PRODUCT_NAME)`) replaced by a space, in one pass.
    static func withoutBuildSettings(_ value: String) -> String {
        var out = "", chars = value[...]
        while let ch = chars.popFirst() {
            guard ch == "$", let open = chars.first, open == "(" || open == "{" else { out.append(ch); continue }
            let close: Character = open == "(" ? ")" : "}"
            chars = chars.firstIndex(of: close).map { chars[chars.index(after: $0)...] } ?? chars[chars.endIndex...]
            out.append(" ")
        }
        return out
    }

    /// A word with a capital after its first letter ("openHAB", "DuckDuckGo") or in capitals
    /// only ("VLC") is taken for a name.
    static func looksLikeName(_ word: Substring) -> Bool {
        word.dropFirst().contains(where: \.isUppercase) || (word.count > 1 && word.allSatisfy(\.isUppercase))
    }

    /// Verbs that follow the app's name in "<App> needs/uses/wants …", in the vocabularies' languages.
    static let subjectVerbs: Set<String> = [
        "needs", "requires", "wants", "would", "will", "uses", "may",                  // English
        "benötigt", "braucht", "möchte", "verwendet", "nutzt",                         // German
        "a", "nécessite", "utilise", "veut",                                           // French ("a besoin")
        "necesita", "requiere", "usa", "utiliza", "quiere", "precisa", "requer", "quer", // Spanish, Portuguese
        "ha", "richiede", "utilizza", "vuole",                                         // Italian ("ha bisogno")
        "heeft", "gebruikt", "wil", "vereist",                                         // Dutch
        "trenger", "behøver", "bruker", "bruger", "vil", "krever", "kræver",           // Norwegian, Danish
        "behöver", "kräver", "använder",                                               // Swedish
        "potrzebuje", "wymaga",                                                        // Polish
    ]

    /// The words of one language that a purpose string can be made of without saying why.
    struct Vocabulary: Sendable {
        let language: String
        /// Words for the app itself ("app", "application"), which count as the app's name.
        let app: Set<String>
        /// Words that only ask for or announce access: articles, pronouns, auxiliaries, "need",
        /// "allow", "access", "permission", prepositions, and vague non-reasons ("to work
        /// properly"). Never a word that names a feature or an action on the data ("scan",
        /// "share", "save", "upload"), nor a negation: "This app does not …" states a use.
        let filler: Set<String>
        /// Nouns that name a protected resource or its data.
        let resources: Set<String>
        /// Words for "access" (also in `filler`). Access to the app itself names a purpose —
        /// what Face ID is for — so one of these followed by the app, with at most three filler
        /// words between, makes a string pass: "Face ID wird für den Zugriff auf deine App verwendet."
        let access: Set<String>

        init(_ language: String, app: String, filler: String, resources: String, access: String = "") {
            func words(_ s: String) -> Set<String> { Set(s.split(whereSeparator: \.isWhitespace).map(String.init)) }
            self.language = language
            self.app = words(app)
            self.filler = words(filler)
            self.resources = words(resources)
            self.access = words(access)
        }

        /// Every word is the app (nil), filler or a resource in this vocabulary (at `v`).
        func restatesPermission(_ words: [WordRoles?], index v: Int) -> Bool {
            words.allSatisfy { $0 == nil || $0!.isFiller(v) || $0!.isResource(v) }
        }

        /// A word for access followed by the app, with at most three filler words between.
        func namesPurpose(_ words: [WordRoles?], index v: Int) -> Bool {
            words.indices.contains { i in
                guard words[i]?.isAccess(v) == true else { return false }
                let next = words[(i + 1)...].prefix(4)
                guard let app = next.firstIndex(where: { $0 == nil }) else { return false }
                return next[..<app].allSatisfy { $0!.isFiller(v) }
            }
        }
    }

    /// One vocabulary per language whose word boundaries are spaces and whose requests are
    /// judged reliably from words alone. Words are lower case; a string is split at every
    /// character that is not a letter, so "d’accéder" is "d" and "accéder", "app's" is "app" and "s".
    static let vocabularies: [Vocabulary] = [
        Vocabulary("en", app: "app apps application", filler: """
            a an the this that it its i me my we our us you your user users device devices phone iphone ipad s t d ll re ve
            is are be been being am was were will would shall should can could may might must do does did have has had
            need needs needed require requires required requiring want wants wanted like
            use uses used using usage access accesses accessing accessed permission permissions permit allow allows allowed allowing
            let lets grant granted give enable enabled enabling request requests requested requesting ask asks asked please kindly
            get getting determine determining protect protecting protection secure securing security
            to for of in on at by with from and or when while only also always whenever
            work works working function functions functioning properly correctly current
            """, resources: """
            camera cameras photo photos picture pictures image images video videos library libraries gallery album albums roll
            location locations gps position geolocation whereabouts microphone microphones mic audio sound
            contacts contact address book calendar calendars event events reminder reminders bluetooth motion fitness health
            speech recognition face id faceid touch touchid biometrics biometric nfc tracking media music apple homekit home siri
            network local lan wifi services service background foreground information info data credentials
            """, access: "access accessing"),
        Vocabulary("de", app: "app apps anwendung", filler: """
            der die das den dem des ein eine einen einem einer dieser diese dieses ihr ihre ihren ihrem ihrer dein deine deinen deinem deiner
            sie du wir uns unser unsere gerät geräts iphone ipad
            ist sind wird werden wurde kann können muss müssen möchte möchten soll bitte
            benötigt benötigen braucht brauchen erfordert erforderlich notwendig nötig
            zugriff zugang zugreifen erlaubnis berechtigung berechtigungen erlauben erlaube zulassen gewähren verwenden verwendet nutzen nutzt benutzen
            auf zu zur zum für von mit und oder in im an
            """, resources: """
            kamera fotos foto bilder bild fotomediathek mediathek galerie standort standorts position ortung mikrofon
            kontakte kontakten kalender erinnerungen bluetooth bewegung gesundheit gesundheitsdaten spracherkennung face id
            netzwerk lokalen lokales lokale musik medien daten
            """, access: "zugriff zugang zugreifen"),
        Vocabulary("fr", app: "application app appli", filler: """
            le la les l un une des de du d ce cet cette cela votre vos ton ta tes son sa ses nous vous je j il elle on
            appareil iphone ipad
            est sont être sera a ont avoir besoin nécessite nécessaire requiert requis veut voudrait souhaite peut doit
            accès accéder autorisation autorisations permission autoriser autorisez permettre utiliser utilise utilisé utilisation
            à au aux pour par avec et ou en sur dans svp merci
            """, resources: """
            caméra appareil photo photos photothèque galerie bibliothèque localisation position emplacement microphone micro
            contacts calendrier calendriers rappels bluetooth mouvement santé reconnaissance vocale face id réseau local musique médias données
            """, access: "accéder accès"),
        Vocabulary("es", app: "aplicación app", filler: """
            el la los las lo un una unos unas este esta esto su sus tu tus mi mis nuestro nuestra nosotros usted te le nos
            dispositivo iphone ipad
            es son ser será está necesita necesitamos necesitan requiere requerimos precisa quiere quisiera desea puede debe
            acceso acceder permiso permisos permitir permite permita autorización usar utilizar uso
            a al de del para por con y o en sobre favor
            """, resources: """
            cámara camara fotos foto galería fototeca biblioteca ubicación ubicacion localización posición micrófono microfono
            contactos calendario calendarios recordatorios bluetooth movimiento salud reconocimiento voz face id red local música medios datos
            """, access: "acceder acceso"),
        Vocabulary("pt", app: "aplicativo aplicação app", filler: """
            o a os as um uma este esta isto seu sua seus suas teu tua nosso nossa nós você voce te lhe nos
            dispositivo iphone ipad
            é são ser será está precisa precisamos precisam necessita necessitamos requer quer gostaria deseja pode deve
            acesso acessar aceder permissão permissões permitir permita autorização usar utilizar uso
            ao à de do da dos das para por com e ou em no na sobre favor
            """, resources: """
            câmera câmara camera fotos foto galeria fototeca biblioteca localização localizacao posição microfone
            contatos contactos calendário calendários lembretes bluetooth movimento saúde reconhecimento fala face id rede local música mídia dados
            """, access: "acessar acesso aceder"),
        Vocabulary("it", app: "applicazione app", filler: """
            il lo la i gli le l un uno una questo questa suo sua tuo tua vostro vostra nostro nostra noi voi ti ci
            dispositivo iphone ipad
            è sono essere sarà ha hanno bisogno necessita richiede vuole vorrebbe può deve
            accesso accedere permesso permessi autorizzazione consentire consenti permettere usare utilizzare uso
            a al all alla alle allo ai agli di del dell della dei delle per con e o in nell su favore
            """, resources: """
            fotocamera camera foto galleria libreria posizione localizzazione microfono contatti calendario calendari promemoria
            bluetooth movimento salute riconoscimento vocale face id rete locale musica dati
            """, access: "accedere accesso"),
        Vocabulary("nl", app: "app applicatie", filler: """
            de het een deze dit uw jouw je jij wij we ons onze u apparaat toestel iphone ipad
            is zijn wordt worden heeft hebben nodig vereist wil wilt kan moet mag
            toegang toestemming gebruik gebruiken gebruikt toestaan sta toe
            tot aan voor van met en of in op om alstublieft
            """, resources: """
            camera foto fotos fotobibliotheek bibliotheek galerij locatie positie microfoon contacten agenda herinneringen
            bluetooth beweging gezondheid spraakherkenning face id netwerk lokale muziek gegevens
            """, access: "toegang"),
        // Norwegian (Bokmål) and Danish share most of these words.
        Vocabulary("nb/da", app: "app appen applikasjon applikasjonen applikationen", filler: """
            den det en et ei din ditt dine vi oss vår våre du deg dig jeres er har trenger behøver kræver krever vil kan må skal
            enhet enheten enhed enheden
            tilgang adgang til tillatelse tilladelse tillat tillad bruke bruge bruk brug brukes bruges
            for av af med og eller i på
            """, resources: """
            kamera kameraet bilder bildene foto fotoer fotobibliotek fotobiblioteket bibliotek plassering posisjon lokation placering
            mikrofon mikrofonen kontakter kalender påminnelser bluetooth bevegelse helse sundhed face id nettverk netværk lokale musikk musik data
            """, access: "tilgang adgang"),
        Vocabulary("sv", app: "app appen applikation applikationen", filler: """
            den det en ett din ditt dina vi oss vår våra du dig är har behöver kräver vill kan måste ska
            enhet enheten
            åtkomst tillgång till behörighet tillåt tillåta använda används användning
            för av med och eller i på
            """, resources: """
            kamera kameran bilder foton bildbibliotek bildbiblioteket plats platsen position mikrofon mikrofonen kontakter kalender
            påminnelser bluetooth rörelse hälsa face id nätverk lokala musik data
            """, access: "åtkomst tillgång"),
        Vocabulary("tr", app: "uygulama uygulamanın", filler: """
            bu cihaz cihazın sizin senin bizim
            izin izni izne erişim erişimi erişmek gerekli gerekiyor gerek ihtiyaç ihtiyacı duyar kullanmak kullanım için ve veya lütfen
            """, resources: """
            kamera kameraya kamerayı konum konuma konumunuz konumunuza mikrofon mikrofona fotoğraf fotoğraflar galeri rehber kişiler
            takvim bluetooth sağlık face id ağ yerel müzik
            """),
        Vocabulary("ru", app: "приложение приложению приложения приложении", filler: """
            это этот эта ваш вашей вашу ваша ваши вашему вам вы мы нам наш
            нужен нужна нужно нужны необходим необходимо необходима требуется требует хочет хотим может должно
            доступ доступа доступу разрешение разрешения разрешите разрешить использовать используется использования
            к для в на и или с пожалуйста
            """, resources: """
            камера камеру камере камеры фото фотографии фотографиям галерея галерее галерею медиатеке геопозиция геопозиции
            местоположение местоположению микрофон микрофону микрофона контакты контактам календарь календарю напоминания
            bluetooth здоровье face id сеть сети локальной музыка данные данным
            """, access: "доступ доступа"),
        Vocabulary("pl", app: "aplikacja aplikacji aplikację", filler: """
            ta ten to twój twoja twoje twojego twojej wasz nasz my nam ci urządzenie urządzenia
            jest są będzie potrzebuje potrzebujemy wymaga wymagany wymagane chce może musi
            dostęp dostępu dostępem zezwolenie uprawnienie uprawnienia zezwól pozwól zezwolić używać użycie używa
            do dla na w z i lub proszę
            """, resources: """
            aparat aparatu kamera kamery zdjęcia zdjęć galeria galerii biblioteka biblioteki lokalizacja lokalizacji położenie
            mikrofon mikrofonu kontakty kontaktów kalendarz przypomnienia bluetooth ruch zdrowie face id sieć sieci lokalnej muzyka dane danych
            """, access: "dostęp dostępu"),
    ]
}
