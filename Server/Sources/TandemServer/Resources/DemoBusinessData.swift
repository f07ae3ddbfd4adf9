import Foundation
import TandemProtocol

/// Believable, deterministic business data for the demo destination `sales`: customers,
/// products and sales orders that reference them. The same seed always gives the same rows,
/// byte for byte, so seeding twice changes nothing and ETags survive a re-seed.
///
/// ```swift
/// let demo = DemoBusinessData()
/// for set in demo.entitySets {
///     try await database.businessData.replaceEntitySet(destination: DemoBusinessData.destination, title: DemoBusinessData.title,
///                                        name: set.name, rows: set.rows, now: Timestamp(clock.now))
/// }
/// ```
public struct DemoBusinessData: Sendable {
    /// The destination's name.
    public static let destination = "sales"
    /// The destination's title.
    static let title = "Sales (demo)"

    /// An entity set's name and its rows, each the canonical JSON text of an object.
    struct EntitySet: Sendable, Equatable {
        /// The entity set's name.
        let name: String
        /// Its rows in order.
        let rows: [String]
    }

    /// The actionable set of purchase requisitions awaiting approval.
    static let approvals = "Approvals"
    /// The field naming an approval (``approvals`` is actionable by it).
    static let approvalIDField = "ApprovalID"

    /// `Customers`, `Products`, `SalesOrders` and `Approvals`, in that order.
    let entitySets: [EntitySet]

    /// Generates the data.
    ///
    /// - Parameters:
    ///   - customers: How many customers (default 60).
    ///   - products: How many products (default 40).
    ///   - orders: How many sales orders (default 240).
    ///   - approvals: How many purchase requisitions awaiting approval (default 12).
    ///   - seed: The random generator's seed; the same seed gives the same data.
    init(customers: Int = 60, products: Int = 40, orders: Int = 240, approvals: Int = 12, seed: UInt64 = 0x7A6E_6465_6D00) {
        var random = SplitMix64(seed: seed)
        let customerRows = (0..<customers).map { Customer(index: $0, random: &random) }
        let productRows = (0..<products).map { Product(index: $0, random: &random) }
        let orderRows = (0..<orders).map { SalesOrder(index: $0, customers: customerRows, products: productRows, random: &random) }
        let approvalRows = (0..<approvals).map { Approval(index: $0, random: &random) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encode = { (row: any Encodable) -> String in
            String(decoding: (try? encoder.encode(row)) ?? Data("{}".utf8), as: UTF8.self)
        }
        entitySets = [
            EntitySet(name: "Customers", rows: customerRows.map(encode)),
            EntitySet(name: "Products", rows: productRows.map(encode)),
            EntitySet(name: "SalesOrders", rows: orderRows.map(encode)),
            EntitySet(name: Self.approvals, rows: approvalRows.map(encode)),
        ]
    }

    // MARK: - Rows

    private struct Customer: Encodable {
        let CustomerID: String
        let CompanyName: String
        let ContactName: String
        let Email: String
        let Phone: String
        let City: String
        let Country: String
        let CountryCode: String
        let Segment: String
        let CreatedAt: String

        init(index: Int, random: inout SplitMix64) {
            let place = random.pick(Self.places)
            let first = random.pick(Self.firstNames), last = random.pick(Self.lastNames)
            // Unique for up to 200 customers: each time a stem comes back, its kind moves on by three.
            let round = index / Self.companyStems.count
            let company = "\(Self.companyStems[index % Self.companyStems.count]) \(Self.companyKinds[(index + 3 * round) % Self.companyKinds.count])"
            CustomerID = String(format: "C%04d", 1001 + index)
            CompanyName = company
            ContactName = "\(first) \(last)"
            let domain = company.lowercased().filter { $0.isLetter } + ".example"
            Email = "\(Self.mailbox(first)).\(Self.mailbox(last))@\(domain)"
            Phone = "+\(place.dialCode) \(random.int(in: 100...999)) \(random.int(in: 1000...9999))"
            City = place.city
            Country = place.country
            CountryCode = place.code
            Segment = random.pick(["Enterprise", "Mid-market", "Small business", "Public sector"])
            CreatedAt = DemoCalendar.dateTime(day: random.int(in: 0...364) - 365, second: random.int(in: 28_800...64_800))
        }

        /// A name as it can appear in an e-mail address: accents folded, letters only, lowercase.
        static func mailbox(_ name: String) -> String {
            name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased().filter { $0.isASCII && $0.isLetter }
        }

        static let places: [(city: String, country: String, code: String, dialCode: Int)] = [
            ("Berlin", "Germany", "DE", 49), ("Munich", "Germany", "DE", 49), ("Hamburg", "Germany", "DE", 49),
            ("Walldorf", "Germany", "DE", 49), ("Paris", "France", "FR", 33), ("Lyon", "France", "FR", 33),
            ("Milan", "Italy", "IT", 39), ("Madrid", "Spain", "ES", 34), ("Barcelona", "Spain", "ES", 34),
            ("Amsterdam", "Netherlands", "NL", 31), ("Vienna", "Austria", "AT", 43), ("Zurich", "Switzerland", "CH", 41),
            ("London", "United Kingdom", "GB", 44), ("Dublin", "Ireland", "IE", 353), ("Stockholm", "Sweden", "SE", 46),
            ("Warsaw", "Poland", "PL", 48), ("New York", "United States", "US", 1), ("Chicago", "United States", "US", 1),
            ("Toronto", "Canada", "CA", 1), ("São Paulo", "Brazil", "BR", 55), ("Tokyo", "Japan", "JP", 81),
            ("Singapore", "Singapore", "SG", 65), ("Sydney", "Australia", "AU", 61), ("Cape Town", "South Africa", "ZA", 27),
        ]
        static let firstNames = [
            "Anna", "Ben", "Clara", "David", "Elena", "Felix", "Grace", "Hugo", "Ines", "Jonas", "Keiko", "Liam",
            "Maya", "Noah", "Olivia", "Paul", "Rosa", "Samir", "Tara", "Victor", "Wen", "Yusuf", "Zoe", "Lucas",
        ]
        static let lastNames = [
            "Müller", "Schmidt", "Dubois", "Rossi", "García", "de Vries", "Novak", "Johansson", "Murphy", "Kowalski",
            "Smith", "Tanaka", "Silva", "Chen", "Okafor", "Fischer", "Martin", "Bianchi", "López", "Weber",
        ]
        static let companyStems = [
            "Alpine", "Blue Harbor", "Cedar", "Delta", "Evergreen", "Falcon", "Granite", "Horizon", "Ivory", "Juniper",
            "Keystone", "Lumen", "Meridian", "Northwind", "Orbit", "Pioneer", "Quarry", "Riverside", "Summit", "Tidewater",
        ]
        static let companyKinds = ["Logistics", "Retail", "Foods", "Engineering", "Health", "Energy", "Textiles", "Motors", "Pharma", "Studios"]
    }

    private struct Product: Encodable {
        let ProductID: String
        let Name: String
        let Category: String
        let UnitPrice: String
        let Currency: String
        let UnitsInStock: Int
        let Supplier: String

        init(index: Int, random: inout SplitMix64) {
            let (category, items, priceRange) = random.pick(Self.catalogue)
            ProductID = String(format: "P%03d", 100 + index)
            Name = "\(random.pick(["Pro", "Lite", "Max", "Eco", "Plus", "Mini"])) \(random.pick(items)) \(random.int(in: 2...9))\(random.pick(["00", "10", "50"]))"
            Category = category
            UnitPrice = DemoMoney.format(cents: random.int(in: priceRange) / 100 * 100 - 1)
            Currency = "EUR"
            UnitsInStock = random.int(in: 0...480)
            Supplier = random.pick(["Acme Components", "Nordic Supply", "Sunrise Manufacturing", "Rhine Industrial", "Pacific Trading"])
        }

        static let catalogue: [(String, [String], ClosedRange<Int>)] = [
            ("Notebooks", ["Notebook", "Ultrabook", "Workstation"], 49_900...249_900),
            ("Monitors", ["Monitor", "Display", "Curved Display"], 12_900...89_900),
            ("Accessories", ["Keyboard", "Mouse", "Headset", "Docking Station", "Webcam"], 1_900...24_900),
            ("Printers", ["Laser Printer", "Inkjet Printer", "Label Printer"], 8_900...59_900),
            ("Software", ["Office Suite", "Security Suite", "Backup Service"], 2_900...39_900),
        ]
    }

    private struct SalesOrder: Encodable {
        let SalesOrderID: String
        let CustomerID: String
        let CustomerName: String
        let ProductID: String
        let ProductName: String
        let Quantity: Int
        let UnitPrice: String
        let NetAmount: String
        let TaxAmount: String
        let GrossAmount: String
        let Currency: String
        let Status: String
        let OrderDate: String
        let DeliveryDate: String?

        init(index: Int, customers: [Customer], products: [Product], random: inout SplitMix64) {
            let customer = random.pick(customers)
            let product = random.pick(products)
            let quantity = random.int(in: 1...12)
            let unitCents = DemoMoney.cents(product.UnitPrice)
            let net = unitCents * quantity
            let tax = (net * 19 + 50) / 100
            let orderDay = random.int(in: 0...179) - 180
            let status = random.pick(["New", "In Process", "In Process", "Shipped", "Delivered", "Delivered", "Delivered", "Cancelled"])
            SalesOrderID = "SO\(500_001 + index)"
            CustomerID = customer.CustomerID
            CustomerName = customer.CompanyName
            ProductID = product.ProductID
            ProductName = product.Name
            Quantity = quantity
            UnitPrice = product.UnitPrice
            NetAmount = DemoMoney.format(cents: net)
            TaxAmount = DemoMoney.format(cents: tax)
            GrossAmount = DemoMoney.format(cents: net + tax)
            Currency = product.Currency
            Status = status
            OrderDate = DemoCalendar.date(day: orderDay)
            DeliveryDate = ["Shipped", "Delivered"].contains(status) ? DemoCalendar.date(day: orderDay + random.int(in: 2...14)) : nil
        }

        /// Encodes `DeliveryDate` as `null` when there is none, so every order has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(SalesOrderID, forKey: .SalesOrderID)
            try container.encode(CustomerID, forKey: .CustomerID)
            try container.encode(CustomerName, forKey: .CustomerName)
            try container.encode(ProductID, forKey: .ProductID)
            try container.encode(ProductName, forKey: .ProductName)
            try container.encode(Quantity, forKey: .Quantity)
            try container.encode(UnitPrice, forKey: .UnitPrice)
            try container.encode(NetAmount, forKey: .NetAmount)
            try container.encode(TaxAmount, forKey: .TaxAmount)
            try container.encode(GrossAmount, forKey: .GrossAmount)
            try container.encode(Currency, forKey: .Currency)
            try container.encode(Status, forKey: .Status)
            try container.encode(OrderDate, forKey: .OrderDate)
            try container.encode(DeliveryDate, forKey: .DeliveryDate)
        }

        enum CodingKeys: String, CodingKey {
            case SalesOrderID, CustomerID, CustomerName, ProductID, ProductName, Quantity, UnitPrice
            case NetAmount, TaxAmount, GrossAmount, Currency, Status, OrderDate, DeliveryDate
        }
    }
}

// MARK: - Generation helpers

extension DemoBusinessData {
    /// Decimal money amounts as strings with two decimals, computed in whole cents.
    enum DemoMoney {
        static func format(cents: Int) -> String {
            "\(cents / 100).\(String(format: "%02d", cents % 100))"
        }

        static func cents(_ text: String) -> Int {
            let parts = text.split(separator: ".")
            return (Int(parts.first ?? "0") ?? 0) * 100 + (parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
        }
    }

    /// Dates relative to a fixed reference day (2025-06-30), so the data never depends on today.
    enum DemoCalendar {
        static let reference = Timestamp(milliseconds: 1_751_241_600_000)

        static func date(day: Int) -> String {
            String(dateTime(day: day, second: 0).prefix(10))
        }

        static func dateTime(day: Int, second: Int) -> String {
            let time = reference.adding(.seconds(day * 86_400 + second))
            return ISO8601Time.string(from: time.date, fractionalSeconds: false)
        }
    }

    /// A small, fast, seedable generator (SplitMix64): deterministic on every platform, unlike
    /// the system generator.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func int(in range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.count))
        }

        mutating func pick<Element>(_ elements: [Element]) -> Element {
            elements[int(in: 0...(elements.count - 1))]
        }
    }
}
