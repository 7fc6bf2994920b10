package sandbox

// Tables the seed draws from. Payments share these strings and pointers
// instead of carrying copies, which keeps a payment small enough for
// millions of them.

// merchantProfile is what a merchant sells and when people buy it.
type merchantProfile struct {
	id, name, kind string
	currencies     []string
	share          float64    // of all seeded payments
	weekday        [7]float64 // Sunday first
	hours          [24]float64
	products       []product
	sbpShare       float64 // payments by SBP instead of a card
	dualShare      float64 // holds (dualMode)
	rejectShare    float64
	refundShare    float64 // of Settled payments that get refunds
	discountShare  float64 // payments with a percentage discount (kopecks)
	invoiceShare   float64 // payments made through a payment page (invoice)
	callbackURL    string
	acquirerBank   string // SBP member id of the merchant's bank
	tokenType      string
	tokenPurpose   string
	params         []map[string]any
	stickers       []stickerTemplate
}

// product is one thing sold; a price range when min < max, stepped by step
// (in whole currency units).
type product struct {
	desc     string
	min, max int64 // in ten-thousandths (money.Decimal)
	step     int64
	code     string // used in order numbers (travel)
}

type stickerTemplate struct {
	desc, code, purpose string
	amount              int64 // whole RUB; 0: the payer enters the amount
	cashlink, active    bool
}

func rub(whole int64) int64 { return whole * 10000 }

// fixed is a product with one price given in kopecks.
func fixed(desc string, kopecks int64) product {
	return product{desc: desc, min: kopecks * 100, max: kopecks * 100}
}

func ranged(desc, code string, minRUB, maxRUB, stepRUB int64) product {
	return product{desc: desc, code: code, min: rub(minRUB), max: rub(maxRUB), step: rub(stepRUB)}
}

var officeHours = [24]float64{ // Moscow local time
	0.1, 0.05, 0.03, 0.02, 0.02, 0.05, 0.2, 0.6, 1.4, 1.8, 1.5, 1.2,
	1.5, 1.6, 1.2, 1.0, 1.0, 1.1, 1.3, 1.2, 0.9, 0.6, 0.4, 0.2,
}
var eveningHours = [24]float64{
	0.3, 0.2, 0.1, 0.05, 0.05, 0.05, 0.1, 0.3, 0.5, 0.7, 0.8, 0.9,
	1.0, 1.0, 0.9, 0.9, 1.0, 1.1, 1.3, 1.6, 1.8, 1.7, 1.3, 0.7,
}

var profiles = []merchantProfile{
	{
		id: "1001", name: "Daily Grind Coffee", kind: "coffee", currencies: []string{"RUB"},
		share: 0.45, weekday: [7]float64{0.75, 1.1, 1.1, 1.05, 1.1, 1.15, 0.85},
		hours: [24]float64{ // morning and lunch peaks
			0, 0, 0, 0, 0, 0, 0.1, 1.2, 2.4, 2.0, 1.2, 1.0,
			1.6, 1.7, 1.0, 0.8, 0.9, 1.1, 1.0, 0.7, 0.4, 0.2, 0.05, 0,
		},
		products: []product{
			fixed("Espresso", 15000), fixed("Filter coffee 0.3 l", 18000), fixed("Americano 0.3 l", 19000),
			fixed("Cappuccino 0.3 l", 26000), fixed("Flat white", 29000), fixed("Latte 0.4 l", 31000),
			fixed("Raf coffee 0.3 l", 33000), fixed("Matcha latte 0.4 l", 36000), fixed("Cocoa with marshmallow", 25000),
			fixed("Cappuccino 0.3 l, almond croissant", 50000), fixed("Latte 0.4 l, cheesecake", 63000),
			fixed("Americano, croissant", 37000), fixed("Breakfast: syrniki, cappuccino", 61000),
			fixed("Lunch: turkey sandwich, lemonade", 69000), fixed("2 x cappuccino 0.3 l", 52000),
			fixed("Flat white, cinnamon bun", 50000), fixed("Raf coffee, carrot cake", 68000),
			fixed("Coffee beans Ethiopia Yirgacheffe 250 g", 89000), fixed("Tea pot, honey cake", 54000),
			fixed("3 x americano 0.3 l, 2 croissants", 90000),
		},
		sbpShare: 0.22, dualShare: 0, rejectShare: 0.06, refundShare: 0.012, discountShare: 0.12, invoiceShare: 0.02,
		callbackURL: "https://dailygrind.example.com/payments/callback", acquirerBank: "100000000111",
		tokenType: "recurring", tokenPurpose: "Coffee subscription, 20 cups a month",
		params: []map[string]any{{"shop": "Tverskaya 12"}, {"shop": "Arbat 24"}, {"shop": "Kursky station"}, nil},
		stickers: []stickerTemplate{
			{"Cash desk 1, Tverskaya 12", "POS-TV-1", "Payment at the counter", 0, false, true},
			{"Cash desk 2, Arbat 24", "POS-AR-2", "Payment at the counter", 0, false, true},
			{"Night kiosk, Kursky station", "POS-KS-N", "Payment at the counter", 0, false, false},
			{"Coffee subscription, 20 cups", "SUB-20", "Coffee subscription", 3900, true, true},
		},
	},
	{
		id: "1002", name: "Page Turner Books", kind: "books", currencies: []string{"RUB"},
		share: 0.25, weekday: [7]float64{1.3, 0.9, 0.9, 0.95, 1.0, 1.05, 1.25},
		hours: eveningHours,
		products: []product{
			fixed("The Master and Margarita, M. Bulgakov", 64990), fixed("War and Peace, L. Tolstoy (2 vol.)", 189000),
			fixed("Crime and Punishment, F. Dostoevsky", 45900), fixed("Dune, F. Herbert", 114900),
			fixed("The Go Programming Language, A. Donovan, B. Kernighan", 329000),
			fixed("Designing Data-Intensive Applications, M. Kleppmann", 399000), fixed("Sapiens, Y. N. Harari", 89900),
			fixed("Harry Potter box set (7 books)", 499000), fixed("Eugene Onegin, A. Pushkin, gift edition", 245000),
			fixed("Atlas of the World 2026", 179000), fixed("Children's encyclopedia: Space", 129000),
			fixed("The Little Prince, A. de Saint-Exupery", 34900), fixed("1984, G. Orwell", 39900),
			fixed("Gift card 1000 RUB", 100000), fixed("Gift card 3000 RUB", 300000),
			fixed("Sketchbook A5 and pencil set", 79050), fixed("Russian grammar workbook, grade 5", 38990),
			fixed("The Brothers Karamazov, F. Dostoevsky", 79900), fixed("Anna Karenina, L. Tolstoy", 69900),
			fixed("Clean Code, R. Martin", 219000), fixed("Comics: Major Grom, vol. 1", 95000),
			fixed("Order of 2 books: Dune; Sapiens", 204800), fixed("Order of 3 books: 1984; The Little Prince; Anna Karenina", 148700),
		},
		sbpShare: 0.15, dualShare: 0.05, rejectShare: 0.08, refundShare: 0.05, discountShare: 0.1, invoiceShare: 0.5,
		callbackURL: "https://shop.pageturner.example/api/payments/notify", acquirerBank: "100000000004",
		tokenType: "recurring", tokenPurpose: "Page Turner Plus membership",
		params: []map[string]any{{"channel": "web"}, {"channel": "app"}, {"channel": "web", "promo": "READ10"}},
		stickers: []stickerTemplate{
			{"Pickup point, Nevsky 28", "PICKUP-NV", "Order payment at pickup", 0, false, true},
			{"Gift card 1000 RUB", "GIFT-1000", "Gift card", 1000, true, true},
			{"Book fair stand 2025", "FAIR-25", "Book fair purchase", 0, false, false},
		},
	},
	{
		id: "1003", name: "Horizon Travel", kind: "travel", currencies: []string{"RUB", "EUR", "USD"},
		share: 0.08, weekday: [7]float64{0.7, 1.25, 1.2, 1.1, 1.0, 0.95, 0.75},
		hours: officeHours,
		products: []product{
			ranged("Tour: Antalya, 7 nights, 2 adults, all inclusive", "AYT", 120000, 250000, 100),
			ranged("Tour: Sochi, 10 nights, family", "AER", 90000, 210000, 100),
			ranged("Flight Moscow - Istanbul, return", "IST", 28000, 65000, 10),
			ranged("Flight Moscow - Dubai, return", "DXB", 35000, 90000, 10),
			ranged("Hotel: Kazan, 3 nights", "KZN", 14000, 36000, 10),
			ranged("Hotel: Saint Petersburg, 2 nights", "LED", 9000, 28000, 10),
			ranged("Excursion: Cappadocia balloon flight", "NAV", 18000, 32000, 100),
			ranged("Travel insurance, Schengen, 14 days", "INS", 8000, 12000, 1),
			ranged("Tour: Baikal in winter, 5 nights", "IKT", 65000, 140000, 100),
			ranged("Rail tour: Golden Ring, 4 days", "GRG", 24000, 48000, 100),
			ranged("Tour: Hurghada, 9 nights, 2 adults", "HRG", 110000, 230000, 100),
			ranged("Visa support service", "VSA", 8000, 9500, 100),
		},
		sbpShare: 0.03, dualShare: 0.35, rejectShare: 0.1, refundShare: 0.08, discountShare: 0, invoiceShare: 0.6,
		callbackURL: "https://booking.horizon-travel.example/hooks/payment", acquirerBank: "100000000008",
		tokenType: "cof", tokenPurpose: "Saved card for faster booking",
		params: []map[string]any{{"manager": "E. Orlova"}, {"manager": "D. Kim"}, {"manager": "online"}},
		stickers: []stickerTemplate{
			{"Office desk, Nevsky 60", "OFFICE-NV", "Tour payment at the office", 0, false, true},
			{"Tour deposit 10000 RUB", "DEP-10000", "Tour deposit", 10000, true, true},
			{"Expo booth (closed)", "EXPO-BOOTH", "Expo purchase", 0, false, false},
		},
	},
	{
		id: "1004", name: "Volt Electronics", kind: "electronics", currencies: []string{"RUB"},
		share: 0.22, weekday: [7]float64{1.3, 0.85, 0.9, 0.9, 0.95, 1.15, 1.35},
		hours: eveningHours,
		products: []product{
			fixed("Smartphone Galaxy A55, 128 GB", 3299000), fixed("iPhone 15, 128 GB", 7999000),
			fixed("Laptop MateBook D 16, 16/512 GB", 6499000), fixed("Gaming laptop, RTX 4060, 16 GB", 12999000),
			fixed("Wireless earbuds", 499000), fixed("Smart watch", 1299000), fixed("TV 55\" 4K QLED", 5499000),
			fixed("Robot vacuum cleaner", 2499000), fixed("Power bank 20000 mAh", 249000),
			fixed("Game console PlayStation 5 Slim", 5999000), fixed("Coffee machine, automatic", 3499000),
			fixed("Monitor 27\" IPS 165 Hz", 2399000), fixed("Tablet 11\", 256 GB", 3999000),
			fixed("Mechanical keyboard", 749000), fixed("Router Wi-Fi 6", 599000),
			fixed("Mirrorless camera kit 24-70 mm", 17499000), fixed("Extended warranty, 2 years", 299000),
			fixed("USB-C charger 65 W", 219000),
		},
		sbpShare: 0.1, dualShare: 0.2, rejectShare: 0.09, refundShare: 0.06, discountShare: 0.15, invoiceShare: 0.4,
		callbackURL: "https://volt-electronics.example.com/payment-events", acquirerBank: "100000000005",
		tokenType: "cof", tokenPurpose: "Saved card for one-click checkout",
		params: []map[string]any{{"delivery": "courier"}, {"delivery": "pickup", "store": "Mega Belaya Dacha"}, nil},
		stickers: []stickerTemplate{
			{"Store Mega Belaya Dacha, till 3", "POS-MEGA-3", "Payment at the till", 0, false, true},
			{"Courier terminal QR", "COURIER-QR", "Payment on delivery", 0, false, true},
			{"Extended warranty 2990 RUB", "WARR-2Y", "Extended warranty", 2990, true, true},
			{"Black Friday stand", "BF-STAND", "Payment at the stand", 0, false, false},
		},
	},
}

// cardBIN is one kind of card: its first six digits and its info.
type cardBIN struct {
	bin    string
	info   *CardInfo
	weight float64
}

func ci(brand, issuer, country, typ, category string) *CardInfo {
	return &CardInfo{Brand: brand, Issuer: issuer, Country: country, Type: typ, Category: category}
}

var domesticBINs = []cardBIN{
	{"220220", ci("Mir", "Sberbank", "RU", "debit", "classic"), 14},
	{"220070", ci("Mir", "T-Bank", "RU", "debit", "classic"), 7},
	{"220015", ci("Mir", "Alfa-Bank", "RU", "debit", "premium"), 4},
	{"220024", ci("Mir", "VTB", "RU", "debit", "classic"), 6},
	{"220001", ci("Mir", "Gazprombank", "RU", "debit", "classic"), 3},
	{"220030", ci("Mir", "Raiffeisenbank", "RU", "debit", "classic"), 2},
	{"220077", ci("Mir", "Gazprombank", "RU", "credit", "premium"), 1},
	{"427638", ci("Visa", "Sberbank", "RU", "debit", "classic"), 9},
	{"427655", ci("Visa", "Sberbank", "RU", "debit", "gold"), 3},
	{"437772", ci("Visa", "T-Bank", "RU", "credit", "platinum"), 5},
	{"415428", ci("Visa", "Alfa-Bank", "RU", "debit", "classic"), 4},
	{"418868", ci("Visa", "VTB", "RU", "debit", "classic"), 3},
	{"546938", ci("Mastercard", "Sberbank", "RU", "debit", "standard"), 8},
	{"553691", ci("Mastercard", "T-Bank", "RU", "credit", "world"), 6},
	{"548673", ci("Mastercard", "Alfa-Bank", "RU", "credit", "gold"), 4},
	{"530403", ci("Mastercard", "Raiffeisenbank", "RU", "debit", "standard"), 3},
	{"539600", ci("Mastercard", "Gazprombank", "RU", "debit", "standard"), 2},
	{"624303", ci("UnionPay", "Gazprombank", "RU", "debit", "classic"), 2},
	{"621365", ci("UnionPay", "Raiffeisenbank", "RU", "debit", "classic"), 1},
}

var foreignBINs = []cardBIN{
	{"400115", ci("Visa", "Deutsche Bank", "DE", "credit", "gold"), 3},
	{"455673", ci("Visa", "BNP Paribas", "FR", "debit", "classic"), 3},
	{"516732", ci("Mastercard", "Chase", "US", "credit", "world elite"), 2},
	{"403244", ci("Visa", "Bank of America", "US", "credit", "signature"), 2},
	{"625011", ci("UnionPay", "Bank of China", "CN", "debit", "gold"), 3},
	{"428671", ci("Visa", "Halyk Bank", "KZ", "debit", "classic"), 3},
	{"535440", ci("Mastercard", "Kapital Bank", "UZ", "debit", "standard"), 2},
}

// foreign customer home: phone prefix, IP prefix, e-mail domain, names.
type homeland struct {
	phone, ip string
	domains   []string
	first     []string
	last      []string
}

var russia = homeland{
	domains: []string{"mail.ru", "yandex.ru", "gmail.com", "bk.ru", "inbox.ru", "list.ru", "rambler.ru", "ya.ru"},
	first: []string{"ivan", "alexey", "dmitry", "sergey", "andrey", "maxim", "mikhail", "nikolai", "artem", "pavel",
		"anna", "maria", "elena", "olga", "natalia", "ekaterina", "tatiana", "irina", "svetlana", "daria"},
	last: []string{"ivanov", "smirnov", "kuznetsov", "popov", "vasiliev", "petrov", "sokolov", "mikhailov", "novikov",
		"fedorov", "morozov", "volkov", "alekseev", "lebedev", "semenov", "egorov", "pavlov", "kozlov", "stepanov",
		"nikolaev", "orlov", "andreev", "makarov", "nikitin", "zakharov"},
}

var ruIPPrefixes = []string{"95.165.", "178.176.", "46.39.", "188.162.", "5.18.", "31.173.", "85.140.", "176.59.", "217.118.", "83.220."}

var abroad = []homeland{
	{phone: "49151", ip: "84.132.", domains: []string{"gmail.com", "web.de", "gmx.de"},
		first: []string{"jonas", "lena", "felix", "mia"}, last: []string{"mueller", "schmidt", "schneider", "fischer"}},
	{phone: "336", ip: "90.84.", domains: []string{"orange.fr", "gmail.com"},
		first: []string{"louis", "chloe", "hugo", "emma"}, last: []string{"dubois", "martin", "bernard", "petit"}},
	{phone: "1415", ip: "73.162.", domains: []string{"gmail.com", "outlook.com"},
		first: []string{"james", "olivia", "noah", "ava"}, last: []string{"miller", "johnson", "brown", "davis"}},
	{phone: "86138", ip: "117.136.", domains: []string{"qq.com", "163.com"},
		first: []string{"wei", "li", "jing", "hao"}, last: []string{"wang", "zhang", "chen", "liu"}},
	{phone: "7701", ip: "2.135.", domains: []string{"mail.kz", "gmail.com"},
		first: []string{"aidar", "dana", "nurlan", "aruzhan"}, last: []string{"akhmetov", "nurlanova", "seitkali", "omarov"}},
}

// sbpBanks are the payers' banks for SBP payments: the instrument title.
var sbpBanks = []*Instrument{
	{Method: MethodSBP, Title: "SBP, Sberbank"},
	{Method: MethodSBP, Title: "SBP, T-Bank"},
	{Method: MethodSBP, Title: "SBP, Alfa-Bank"},
	{Method: MethodSBP, Title: "SBP, VTB"},
	{Method: MethodSBP, Title: "SBP, Gazprombank"},
	{Method: MethodSBP, Title: "SBP, Raiffeisenbank"},
}

// sbpInstrument is the instrument of an SBP payment made through the API.
var sbpInstrument = &Instrument{Method: MethodSBP, Title: "SBP"}

// rejections are the seeded failure reasons with their weights.
var rejections = []struct {
	code   string
	weight float64
}{
	{"TransactionDeclined", 30}, {"InsufficientFunds", 25}, {"ThreeDSecureFailed", 12}, {"CancelledByUser", 8},
	{"PaymentExpired", 8}, {"RejectedByFraud", 4}, {"ExpiredAccount", 3}, {"IssuerUnavailable", 3},
	{"BlockedAccount", 2}, {"InvalidAccount", 2}, {"PaymentLimitExceeded", 1}, {"PaymentCountExceeded", 1},
	{"CardNotEnrolled", 1}, {"OperationNotAllowed", 1}, {"InvalidAmount", 0.5},
}

// refundFailures are the reasons a seeded refund was Rejected.
var refundFailures = []string{"IssuerUnavailable", "OperationNotAllowed"}

// Fixed rates the travel agency uses for its EUR and USD prices.
const (
	rubPerEUR = 95
	rubPerUSD = 88
)
