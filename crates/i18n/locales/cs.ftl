# České texty platformy služeb pro občany.
#
# Každá zpráva musí existovat i v en.ftl se stejnými $proměnnými. Číselné argumenty přicházejí
# jako čísla Fluentu, takže podle nich lze volit tvary ([one] 1, [few] 2–4, [many] desetinná
# čísla, [other] ostatní). Technické názvy (parametry, hlavičky, scope) se nepřekládají.

## Obecné texty chybových kódů (pole `name` v chybové odpovědi).

error-VALIDATION_ERROR = Některá hodnota v požadavku chybí, má chybný formát nebo je mimo povolený rozsah.
error-INVALID_JSON = Tělo požadavku není platný JSON.
error-UNAUTHORIZED = Chybí přihlášení, nebo je neplatné.
error-FORBIDDEN = K této akci nemáte oprávnění.
error-NOT_FOUND = Nenalezeno.
error-METHOD_NOT_ALLOWED = Tato metoda zde není povolena.
error-REQUEST_TIMEOUT = Požadavek trval příliš dlouho.
error-CONFLICT = Požadavek je v rozporu s existujícími daty.
error-PAYLOAD_TOO_LARGE = Tělo požadavku je příliš velké.
error-UNSUPPORTED_MEDIA_TYPE = Tělo požadavku má nepodporovaný typ obsahu.
error-TOO_MANY_REQUESTS = Příliš mnoho požadavků; zkuste to prosím později.
error-INTERNAL_ERROR = Došlo k neočekávané chybě; byla zaznamenána.
error-SERVICE_UNAVAILABLE = Služba je dočasně nedostupná.
error-INVALID_NOTIFICATION_TAGS = Štítky oznámení jsou neplatné.
error-NO_MEDIA = K hlášení není přiložena fotografie ani jiná příloha.
error-TOTAL_MEDIA_SIZE_TOO_LARGE = Přílohy jsou dohromady příliš velké.
error-REPORT_INVALID_LOCATION = Místo hlášení nelze přečíst.
error-REPORT_OUTSIDE_CITY = Místo hlášení leží mimo území města.
error-CAPTCHA_VERIFICATION_FAILED = Ověření CAPTCHA se nezdařilo.
error-IDEMPOTENCY_KEY_IN_USE = Požadavek s tímto Idempotency-Key se ještě zpracovává; zkuste to později.
error-IDEMPOTENCY_KEY_REUSED = Tento Idempotency-Key už byl použit pro jiný požadavek.
error-WEBPUSH_SUBSCRIPTION_NOT_FOUND = Odběr webových oznámení neexistuje.
error-WEBPUSH_NOT_CONFIGURED = Webová oznámení tato služba neposílá.
error-EMAIL_SUBSCRIPTION_NOT_FOUND = Žádný odběr e-mailů nemá tento odkaz pro odhlášení.
error-PROJECT_NOT_FOUND = Projekt neexistuje.
error-NEWS_ITEM_NOT_FOUND = Aktualita neexistuje.
error-CATEGORY_NOT_FOUND = Kategorie neexistuje.
error-UNSAFE_MESSAGE_TEXT = Text zprávy není bezpečný Markdown.
error-MESSAGE_NOT_FOUND = Zpráva neexistuje.
error-STREET_NOT_FOUND = Ulice neexistuje.

## Vrstva HTTP.

route-not-found = Tato cesta neexistuje.
method-not-allowed = Tato cesta nepodporuje použitou metodu.
request-timeout = Požadavek trval příliš dlouho.
# $limit: největší přijímané tělo v bajtech (vždy zadáno).
body-too-large = Tělo požadavku je příliš velké (nejvýše { $limit } { $limit ->
        [one] bajt
        [few] bajty
        [many] bajtu
       *[other] bajtů
    }).
body-unreadable = tělo požadavku nelze přečíst: { $reason }
json-syntax = Tělo požadavku není platný JSON: { $reason }
json-content-type = Očekává se tělo s hlavičkou Content-Type: application/json.
# Hodnota JSON nesprávného tvaru; $field je cesta k hodnotě v těle.
invalid-body = Pole { $field } v těle požadavku je neplatné: { $reason }
invalid-body-shape = Tělo požadavku nemá popsaný tvar: { $reason }
invalid-query = Parametr dotazu { $field } je neplatný: { $reason }
invalid-path = Parametr cesty { $field } je neplatný: { $reason }
unexpected-error = Došlo k neočekávané chybě; byla zaznamenána.
temporarily-unavailable = Služba je dočasně nedostupná.
# $checks: neúspěšné kontroly, např. „database, broker“.
not-ready = Služba není připravena: { $checks }
database-not-migrated = Schéma databáze je starší než tato verze služby { $service }; spusťte `{ $service } migrate`.

## Ověřování a oprávnění.

scope-required = Tato operace vyžaduje oprávnění (scope) `{ $scope }`.
token-missing = Chybí token typu Bearer.
token-wrong-scheme = Hlavička Authorization musí používat schéma Bearer.
token-malformed = Token má neplatný formát.
token-algorithm = Algoritmus tokenu není povolen.
token-unknown-key = Token je podepsán neznámým klíčem.
token-bad-signature = Podpis tokenu je neplatný.
token-expired = Platnost tokenu vypršela.
token-not-yet-valid = Token ještě není platný.
token-wrong-issuer = Vydavatel tokenu není přijímán.
token-wrong-audience = Token není určen pro tuto službu (audience).
token-critical-extension = Token vyžaduje rozšíření (crit), kterým služba nerozumí.
token-missing-claim = V tokenu chybí údaj (claim) `{ $claim }`.
token-invalid-claim = Údaj (claim) `{ $claim }` v tokenu má neplatný formát.
token-not-configured = Ověřování tokenem není nastaveno.
token-keys-unavailable = Podpisové klíče poskytovatele identity jsou nedostupné.

## Limity dotazů (domain::limits).

# $value je už v uvozovkách a escapovaná.
limit-not-integer = Parametr { $parameter } musí být celé číslo, zadáno { $value }.
limit-not-number = Parametr { $parameter } musí být číslo, zadáno { $value }.
limit-out-of-range = Parametr { $parameter } musí být v rozmezí { $min } až { $max }, zadáno { $value }.
q-too-short = Parametr q musí mít alespoň { $min } { $min ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    }.
q-too-long = Parametr q smí mít nejvýše { $max } { $max ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    }.

## Geografie (domain::geo) a streets-api.

longitude-out-of-range = Zeměpisná délka (longitude) musí být číslo v rozmezí -180 až 180.
latitude-out-of-range = Zeměpisná šířka (latitude) musí být číslo v rozmezí -90 až 90.
location-shape = Parametr location musí mít tvar „longitude,latitude“ nebo „longitude,latitude,radius“.
location-radius = Poloměr v parametru location musí být kladný počet metrů.
radius-positive = Parametr radius musí být větší než 0.
radius-needs-point = Parametr radius vyžaduje také longitude a latitude.
longitude-needs-latitude = Parametr longitude vyžaduje také latitude.
latitude-needs-longitude = Parametr latitude vyžaduje také longitude.
street-not-found = Ulice „{ $id }“ neexistuje.

## Systémové zprávy (domain::messages, domain::markdown).

client-id-invalid = client_id musí mít 1 až { $max } { $max ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    } z A-Z, a-z, 0-9, „.“, „_“ nebo „-“ a musí začínat písmenem nebo číslicí.
client-id-missing = Parametr client_id je povinný: zadejte ?client_id= nebo použijte token vydaný klientské aplikaci.
text-empty = Text zprávy nesmí být prázdný.
text-too-long = Text zprávy smí mít nejvýše { $max } { $max ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    }, má { $got }.
title-invalid = Nadpis (title) smí mít nejvýše { $max } { $max ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    } a nesmí být prázdný.
kind-unknown = Neznámý druh (kind) „{ $kind }“: očekává se info, maintenance nebo outage.
audience-unknown = Neznámé publikum (audience) „{ $audience }“: očekává se everyone, signed_in nebo roles.
audience-roles-empty = Publikum (audience) „roles“ vyžaduje alespoň jednu roli.
roles-without-audience = Role (roles) jsou povoleny jen s publikem (audience) „roles“.
roles-invalid = Nejvýše { $max-roles } { $max-roles ->
        [one] role
        [few] role
        [many] role
       *[other] rolí
    }, každá o délce 1 až { $max-chars } { $max-chars ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    } bez mezer.
window-empty = Čas valid_to musí být pozdější než valid_from.
message-not-found = Zpráva { $id } pro tohoto klienta neexistuje.
# Závadné hodnoty jsou už v uvozovkách a escapované.
markdown-raw-html = Ve zprávách není povolen HTML kód (nalezeno { $html }); použijte místo něj Markdown.
markdown-unsafe-link = Cíl odkazu { $destination } není povolen; povoleny jsou jen odkazy http, https, mailto, tel a relativní odkazy.
markdown-protocol-relative-link = Cíl odkazu { $destination } není povolen; místo začátku // napište celou adresu s https://.
markdown-heading-attribute = Atribut nadpisu { $attribute } není povolen; povoleny jsou jen {"{"}#id{"}"} a {"{"}.class{"}"}.

## Úložiště.

# $constraint: název porušeného omezení jedinečnosti.
resource-conflict = Požadavek je v rozporu s existujícími daty ({ $constraint }).

## Formuláře multipart (nahrávání). $limit je v bajtech, kromě multipart-too-many-files.

multipart-content-type = Očekává se tělo s hlavičkou Content-Type: multipart/form-data.
multipart-unknown-field = Neznámé pole formuláře „{ $field }“.
multipart-field-too-large = Pole formuláře „{ $field }“ je příliš velké (nejvýše { $limit } { $limit ->
        [one] bajt
        [few] bajty
        [many] bajtu
       *[other] bajtů
    }).
multipart-too-many-files = Příliš mnoho souborů (nejvýše { $limit }).
multipart-file-too-large = Soubor v poli formuláře „{ $field }“ je příliš velký (nejvýše { $limit } { $limit ->
        [one] bajt
        [few] bajty
        [many] bajtu
       *[other] bajtů
    }).
multipart-total-too-large = Data formuláře jsou dohromady příliš velká (nejvýše { $limit } { $limit ->
        [one] bajt
        [few] bajty
        [many] bajtu
       *[other] bajtů
    }).
multipart-not-utf8 = Pole formuláře „{ $field }“ neobsahuje platný text v UTF-8.
multipart-missing-field = Pole formuláře „{ $field }“ je povinné.
multipart-malformed = Data formuláře multipart mají neplatný formát: { $reason }

## Podněty (citizen-api): podání a výpisy.
report-field-empty = { $field } nesmí být prázdné
report-field-too-long = { $field } má { $chars } { $chars ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    }; povoleno je nejvýše { $max }
order-by-location-needs-location = orderBy=location vyžaduje parametr location
parameter-not-one-of = { $parameter } musí být jedno z { $allowed }, zadáno { $value }
report-not-found = Podnět s tímto identifikátorem neexistuje.
report-invalid-location = polohu nelze přečíst: musí mít tvar „zeměpisná délka,zeměpisná šířka“ nebo „délka,šířka,poloměr“ ve WGS84
report-outside-city = poloha leží mimo území města
date-invalid = { $parameter } musí být datum a čas podle ISO 8601, např. 2026-01-31T12:00:00Z, zadáno { $value }
date-range-reversed = dateFrom nesmí být později než dateTo
stats-period-invalid = dateFrom musí být dříve než dateTo, nejvýše { $days } dní před ním
stats-format-invalid = format musí být json nebo csv, zadáno { $value }
has-photo-invalid = hasPhoto musí být true nebo false
parameter-repeated = { $parameter } smí být zadán jen jednou
category-id-invalid = category musí být identifikátor kategorie (UUID), zadáno { $value }
error-REPORT_NOT_FOUND = Takový podnět neexistuje.
location-invalid = location musí mít tvar „délka,šířka“ nebo „délka,šířka,poloměr“ ve WGS84 s kladným poloměrem v metrech, zadáno { $value }

## Officers' workflow on issues (citizen-api). $status is the issue's state name.
error-ISSUE_TRANSITION_NOT_ALLOWED = Stav podnětu tento krok nedovoluje.
issue-not-open = přijmout lze jen otevřený podnět; tento je ve stavu { $status }
issue-not-accepted = vyřešit lze jen přijatý podnět; tento je ve stavu { $status }
issue-cannot-move = podnět ve stavu { $status } nelze přesunout
issue-moved-not-duplicate = přesunutý podnět nelze označit jako duplicitní
issue-duplicate-of-itself = podnět nemůže být duplikátem sebe sama
issue-unsuitable-parent = nadřazený podnět je ve stavu { $status }; původní podnět duplikátu musí být otevřený, přijatý nebo vyřešený

## Vote pool (citizen-api).
error-NOT_ENOUGH_VOTE_TOKENS = Není k dispozici dost hlasů.
vote-count-too-small = count musí být alespoň 1
vote-not-enough-tokens = požadováno hlasů: { $requested }, k dispozici jen { $available }; žádný nebyl přidělen
error-VOTE_TARGET_NOT_FOUND = Pro tento identifikátor není nic, pro co hlasovat.
vote-target-not-found = žádný podnět ani projekt nemá identifikátor { $target }
vote-list-active = active musí být true nebo false
vote-list-cursor = pagecursor musí být [inserted_at, token_id] (okamžik podle RFC 3339 a identifikátor hlasu) nebo dříve vydaný nextCursor
vote-list-cursor-filter = kurzor patří k jinému filtru active, než je požadován

## Smazání vlastních údajů (citizen-api, DELETE /me).
erase-confirm = confirm musí být "ERASE": smazání vašich údajů nelze vrátit
erase-by-operator = údaje zaměstnanců města maže provozovatel služby, ne tento požadavek
data-export-not-found = na tomto odkazu není žádný export, nebo jeho platnost vypršela: vyžádejte si nový pomocí POST /me/data-export



# citizen-api: media, captcha, rate limit
## Attachments of reports. $type is a file type (JPEG, PNG, …); $types lists the accepted ones.
media-empty = Soubor ve formuláři je prázdný.
media-unreadable = Soubor ve formuláři se nepodařilo dočíst.
media-corrupt = Soubor { $type } je poškozený nebo neúplný.
media-unsupported-type = Soubor je typu, který nepřijímáme; přijímané typy: { $types }.
media-metadata-not-removable = Soubor { $type } obsahuje údaje o poloze nebo fotoaparátu v podobě, kterou nelze odstranit; převeďte jej prosím do formátu JPEG.
media-not-found = Takový soubor neexistuje.
## Idempotency-Key of POST /reports.
idempotency-key-invalid = Idempotency-Key musí mít 1 až 255 viditelných znaků ASCII, případně v uvozovkách
idempotency-key-in-use = podání s tímto Idempotency-Key se ještě zpracovává; zopakujte je za chvíli
idempotency-key-reused = tento Idempotency-Key už byl použit pro jiný formulář; pro nové hlášení použijte nový klíč
## CAPTCHA of anonymous reports.
captcha-missing = Při podání bez přihlášení je nutný token CAPTCHA (captchaToken).
captcha-rejected = Ověření CAPTCHA neprošlo.
captcha-low-score = Ověření CAPTCHA neprošlo; zkuste to prosím znovu.
captcha-wrong-action = Token CAPTCHA byl vytvořen pro jinou akci.
captcha-wrong-hostname = Token CAPTCHA byl vytvořen pro jiný web.
captcha-unavailable = CAPTCHA teď nelze ověřit; zkuste to prosím později.
captcha-malformed-answer = CAPTCHA teď nelze ověřit; zkuste to prosím později.
captcha-timeout = CAPTCHA se nepodařilo včas ověřit; zkuste to prosím později.
## Rate limit of anonymous reports. $seconds: how long to wait.
rate-limit-reports = Z vaší adresy přišlo příliš mnoho podnětů; zkuste to znovu za { $seconds } { $seconds ->
        [one] sekundu
        [few] sekundy
        [many] sekundy
       *[other] sekund
    }.

# news
## News items, news categories, subscriptions and projects (citizen-api). $field names a field
## of the body; $max is a number; $category is a category id.
error-CATEGORY_HAS_CHILDREN = Kategorie má ještě podkategorie.
news-cursor-invalid = pagecursor musí být dříve vydaný nextCursor: bez polohy [datum, news_id], s polohou [vzdálenost v metrech nebo "null", news_id]
news-item-not-found = žádná aktualita nemá tento identifikátor
news-field-empty = { $field } nesmí být prázdné
news-field-too-long = { $field } může mít nejvýše { $max } znaků
news-url-invalid = { $field } musí být adresa http nebo https
news-location-invalid = location musí být GeoJSON Point se zeměpisnou délkou a šířkou ve WGS84
news-too-many = { $field } může mít nejvýše { $max } položek
news-category-unknown = žádná kategorie aktualit nemá identifikátor { $category }
news-id-not-accepted = id lze uvést jen v souboru pro import; identifikátor nové aktuality volí služba
news-category-not-found = žádná kategorie aktualit nemá tento identifikátor
news-category-has-children = kategorie má ještě podkategorie; nejprve je přesuňte nebo smažte
news-category-parent-not-found = parent_id neodpovídá žádné kategorii aktualit
news-category-cycle = kategorii nelze zařadit pod ni samotnou ani pod žádnou z jejích podkategorií
news-category-view = view musí být flat nebo tree
news-subscription-unknown = žádná kategorie aktualit nemá identifikátor { $category }; nic se nezměnilo
project-not-found = žádný projekt nemá tento identifikátor
project-cursor-invalid = pagecursor musí být [open_from, project_id] (okamžik podle RFC 3339 a identifikátor projektu), jak byl vydán v nextCursor
# admin
error-ISSUE_NOT_FOUND = Podnět neexistuje.
error-MEDIA_NOT_FOUND = Soubor neexistuje.
error-CATEGORY_IN_USE = Kategorie se používá.
## Úřednická část (citizen-api /admin/…). $max je limit.
issue-not-found = Ve vašich kategoriích není podnět s tímto identifikátorem.
report-category-not-found = Kategorie podnětů s tímto identifikátorem neexistuje.
overdue-invalid = overdue musí být true nebo false
statement-final-invalid = final musí být true nebo false
category-in-use = do této kategorie byly zařazeny podněty; nelze ji smazat
category-default-required = výchozí kategorie musí existovat: místo toho nastavte jako výchozí jinou kategorii
category-name-invalid = název kategorie musí mít 1 až { $max } znaků
category-deadline-invalid = statement_deadline_days musí být mezi 1 a { $max }, nebo null
officer-subject-invalid = identifikátor účtu úředníka musí mít 1 až { $max } znaků
error-REPLY_TEMPLATE_NOT_FOUND = Šablona odpovědi neexistuje.
error-TOO_MANY_REPLY_TEMPLATES = Kategorie už má tolik šablon odpovědí, kolik smí mít.
reply-template-not-found = Ve vašich kategoriích není šablona odpovědi s tímto identifikátorem.
reply-template-title-invalid = název musí mít 1 až { $max } znaků (bez mezer na okrajích), má { $chars }
reply-template-texts-empty = texts musí obsahovat text alespoň v jednom z jazyků cs, en, uk
reply-template-language-unknown = texts smí obsahovat jen jazyky cs, en a uk, zadáno { $value }
reply-template-text-empty = text v jazyce { $language } nesmí být prázdný
reply-template-text-too-long = text v jazyce { $language } má { $chars } { $chars ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    }; povoleno je nejvýše { $max }
reply-template-applies-on-invalid = applies_on musí být accepted, resolved nebo null, zadáno { $value }
reply-templates-too-many = kategorie smí mít nejvýše { $max } šablon odpovědí; nejprve některou smažte
# notifications
## Seznam oznámení, označení přečtení a nastavení (/me/notifications…).
notification-tags-empty = notificationTags musí obsahovat alespoň jeden štítek
notification-tags-too-many = notificationTags obsahuje více než { $max } štítků
notification-tag-malformed = { $tag } není štítek oznámení
notification-tags-not-own = { $count ->
        [one] Jeden štítek nepatří
        [few] { $count } štítky nepatří
        [many] { $count } štítku nepatří
       *[other] { $count } štítků nepatří
    } k vašim oznámením; nic nebylo označeno jako přečtené
notification-cursor = pagecursor musí být dvě data a časy: [sent_at, inserted_at]
error-WEBPUSH_ENDPOINT_NOT_ALLOWED = Adresa pro web push nepatří povolené push službě.
error-INVALID_WEBPUSH_KEYS = Klíče odběru web push jsou neplatné.
error-EMAIL_CLAIM_MISSING = Váš účet nemá e-mailovou adresu.
webpush-endpoint-not-allowed = endpoint musí být https adresa povolené push služby (ne { $host })
webpush-endpoint-invalid = endpoint není https adresa
webpush-p256dh-invalid = keys.p256dh musí být nekomprimovaný veřejný klíč P-256 v base64url
webpush-auth-invalid = keys.auth musí být 16 bajtů v base64url
webpush-subscription-not-found = odběr web push s tímto endpointem nemáte
email-claim-missing = token nemá claim email, není tedy kam posílat
email-unsubscribed = Oznámení už vám e-mailem chodit nebudou.
email-unsubscribe-token-unknown = tento token pro odhlášení nemá žádný odběr e-mailů (možná už skončil)
email-unsubscribe-title = Oznámení e-mailem
email-unsubscribe-question = Chcete přestat dostávat oznámení e-mailem?
email-unsubscribe-button = Odhlásit odběr
email-footer-unsubscribe = Odhlásit odběr
notification-report-status-title = Hlášení má nový stav
notification-report-status-body = „{ $title }“ je nyní { $status ->
        [accepted] přijato
        [resolved] vyřešeno
        [duplicate] označeno jako duplicitní
       *[other] { $status }
    }.
notification-statement-title = Město odpovědělo na hlášení
notification-statement-body = Nové vyjádření k „{ $title }“.
notification-news-title = Novinka z města
notification-news-body = „{ $title }“
notification-digest-title = { $count ->
    [one] Jedno nové oznámení
    [few] { $count } nová oznámení
   *[other] { $count } nových oznámení
}
notification-digest-more = { $count ->
    [one] … a jedno další
    [few] … a { $count } další
   *[other] … a { $count } dalších
}

## Vývojové přihlášení webové aplikace (POST /dev/sign-in, jen pro místní použití).

dev-sign-in-sub = Identifikátor sub musí mít 1 až { $max } { $max ->
        [one] znak
        [few] znaky
        [many] znaku
       *[other] znaků
    } bez řídicích znaků.
dev-sign-in-scopes = Nejvýše { $max-scopes } { $max-scopes ->
        [one] oprávnění
        [few] oprávnění
        [many] oprávnění
       *[other] oprávnění
    } (scopes), každé o délce 1 až { $max-chars } { $max-chars ->
        [one] viditelný znak
        [few] viditelné znaky
        [many] viditelného znaku
       *[other] viditelných znaků
    } ASCII bez mezer.
dev-sign-in-email = Pole email musí být e-mailová adresa o nejvýše { $max } { $max ->
        [one] znaku
       *[other] znacích
    }.
dev-sign-in-locale = Pole locale musí být jedno z: { $allowed }.
