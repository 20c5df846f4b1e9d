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
error-WEBPUSH_SUBSCRIPTION_NOT_FOUND = Odběr webových oznámení neexistuje.
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
vote-target-not-found = žádný podnět nemá identifikátor { $target }


# citizen-api: media, captcha, rate limit
## Attachments of reports. $type is a file type (JPEG, PNG, …); $types lists the accepted ones.
media-empty = Soubor ve formuláři je prázdný.
media-unreadable = Soubor ve formuláři se nepodařilo dočíst.
media-corrupt = Soubor { $type } je poškozený nebo neúplný.
media-unsupported-type = Soubor je typu, který nepřijímáme; přijímané typy: { $types }.
media-metadata-not-removable = Soubor { $type } obsahuje údaje o poloze nebo fotoaparátu v podobě, kterou nelze odstranit; převeďte jej prosím do formátu JPEG.
media-not-found = Takový soubor neexistuje.
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
