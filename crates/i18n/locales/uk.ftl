# Українські тексти платформи послуг для громадян.
#
# Кожне повідомлення має існувати і в en.ftl з тими самими $змінними. Числові аргументи
# надходять як числа Fluent, тож за ними можна обирати форми: [one] 1, 21, 31…;
# [few] 2–4, 22–24…; [many] 0, 5–20, 25–30…; [other] дробові числа (1.5). Точний варіант
# ([1]) стоїть перед [one], бо [one] охоплює і 21. Технічні назви (параметри, заголовки, scope,
# коди, true/false) не перекладаються. Звертання на «Ви».

## Загальні тексти кодів помилок (поле `name` у тілі помилки).

error-VALIDATION_ERROR = Одне зі значень у запиті відсутнє, має неправильний формат або виходить за допустимі межі.
error-INVALID_JSON = Тіло запиту не є коректним JSON.
error-UNAUTHORIZED = Автентифікація відсутня або недійсна.
error-FORBIDDEN = У Вас немає дозволу на цю дію.
error-NOT_FOUND = Не знайдено.
error-METHOD_NOT_ALLOWED = Цей метод тут не дозволено.
error-REQUEST_TIMEOUT = Запит тривав занадто довго.
error-CONFLICT = Запит суперечить наявним даним.
error-PAYLOAD_TOO_LARGE = Тіло запиту завелике.
error-UNSUPPORTED_MEDIA_TYPE = Тіло запиту має непідтримуваний тип вмісту.
error-TOO_MANY_REQUESTS = Забагато запитів; спробуйте, будь ласка, пізніше.
error-INTERNAL_ERROR = Сталася неочікувана помилка; її зареєстровано.
error-SERVICE_UNAVAILABLE = Сервіс тимчасово недоступний.
error-INVALID_NOTIFICATION_TAGS = Теги сповіщень недійсні.
error-NO_MEDIA = До звернення не додано ні фотографії, ні іншого вкладення.
error-TOTAL_MEDIA_SIZE_TOO_LARGE = Загальний розмір вкладень завеликий.
error-REPORT_INVALID_LOCATION = Місце, зазначене у зверненні, не вдається розпізнати.
error-REPORT_OUTSIDE_CITY = Місце, зазначене у зверненні, розташоване за межами міста.
error-CAPTCHA_VERIFICATION_FAILED = Перевірку CAPTCHA не пройдено.
error-IDEMPOTENCY_KEY_IN_USE = Запит із цим Idempotency-Key ще обробляється; повторіть спробу пізніше.
error-IDEMPOTENCY_KEY_REUSED = Цей Idempotency-Key уже використано для іншого запиту.
error-WEBPUSH_SUBSCRIPTION_NOT_FOUND = Такої підписки на вебсповіщення не існує.
error-WEBPUSH_NOT_CONFIGURED = Цей сервіс не надсилає вебсповіщень.
error-EMAIL_SUBSCRIPTION_NOT_FOUND = Немає підписки на сповіщення електронною поштою з таким посиланням для відписки.
error-PROJECT_NOT_FOUND = Такого проєкту не існує.
error-NEWS_ITEM_NOT_FOUND = Такої новини не існує.
error-CATEGORY_NOT_FOUND = Такої категорії не існує.
error-UNSAFE_MESSAGE_TEXT = Текст повідомлення не є безпечним Markdown.
error-MESSAGE_NOT_FOUND = Такого повідомлення не існує.
error-STREET_NOT_FOUND = Такої вулиці не існує.

## Рівень HTTP.

route-not-found = Такого шляху не існує.
method-not-allowed = Цей шлях не підтримує використаний метод.
request-timeout = Запит тривав занадто довго.
# $limit: найбільше допустиме тіло в байтах (завжди задано).
body-too-large = Тіло запиту завелике (щонайбільше { $limit } { $limit ->
        [one] байт
        [few] байти
        [many] байтів
       *[other] байта
    }).
body-unreadable = Не вдалося прочитати тіло запиту: { $reason }
json-syntax = Тіло запиту не є коректним JSON: { $reason }
json-content-type = Очікується тіло із заголовком Content-Type: application/json.
# Значення JSON неправильної структури; $field — шлях до значення в тілі.
invalid-body = Поле { $field } у тілі запиту недійсне: { $reason }
invalid-body-shape = Тіло запиту не відповідає описаній структурі: { $reason }
invalid-query = Параметр запиту { $field } недійсний: { $reason }
invalid-path = Параметр шляху { $field } недійсний: { $reason }
unexpected-error = Сталася неочікувана помилка; її зареєстровано.
temporarily-unavailable = Сервіс тимчасово недоступний.
# $checks: перевірки, що не пройшли, напр. «database, broker».
not-ready = Сервіс не готовий: { $checks }
database-not-migrated = Схема бази даних старіша за цю версію сервісу { $service }; виконайте `{ $service } migrate`.

## Автентифікація та дозволи.

scope-required = Ця операція потребує дозволу (scope) `{ $scope }`.
token-missing = Відсутній токен типу Bearer.
token-wrong-scheme = Заголовок Authorization має використовувати схему Bearer.
token-malformed = Токен має неправильний формат.
token-algorithm = Алгоритм токена не дозволено.
token-unknown-key = Токен підписано невідомим ключем.
token-bad-signature = Підпис токена недійсний.
token-expired = Термін дії токена минув.
token-not-yet-valid = Токен ще не набув чинності.
token-wrong-issuer = Токен видано недозволеним видавцем.
token-wrong-audience = Токен не призначений для цього сервісу (audience).
token-critical-extension = Токен вимагає розширень (crit), яких сервіс не підтримує.
token-missing-claim = У токені відсутній атрибут (claim) `{ $claim }`.
token-invalid-claim = Атрибут (claim) `{ $claim }` у токені має неправильний формат.
token-not-configured = Автентифікацію за токеном не налаштовано.
token-keys-unavailable = Ключі підпису постачальника ідентифікації недоступні.

## Обмеження запитів (domain::limits).

# $value уже в лапках і екранована.
limit-not-integer = Параметр { $parameter } має бути цілим числом, отримано { $value }.
limit-not-number = Параметр { $parameter } має бути числом, отримано { $value }.
limit-out-of-range = Параметр { $parameter } має бути в межах від { $min } до { $max }, отримано { $value }.
q-too-short = Параметр q має містити щонайменше { $min } { $min ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }.
q-too-long = Параметр q може містити щонайбільше { $max } { $max ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }.

## Географія (domain::geo) і streets-api.

longitude-out-of-range = Довгота (longitude) має бути числом від -180 до 180.
latitude-out-of-range = Широта (latitude) має бути числом від -90 до 90.
location-shape = Параметр location має бути у вигляді «longitude,latitude» або «longitude,latitude,radius».
location-radius = Радіус у параметрі location має бути додатним числом метрів.
radius-positive = Параметр radius має бути більшим за 0.
radius-needs-point = Параметр radius потребує також longitude і latitude.
longitude-needs-latitude = Параметр longitude потребує також latitude.
latitude-needs-longitude = Параметр latitude потребує також longitude.
street-not-found = Вулиці «{ $id }» не існує.

## Системні повідомлення (domain::messages, domain::markdown).

client-id-invalid = client_id має містити від 1 до { $max } символів з A-Z, a-z, 0-9, «.», «_» або «-» і починатися з літери чи цифри.
client-id-missing = Параметр client_id є обов’язковим: зазначте ?client_id= або використайте токен, виданий клієнтському застосунку.
text-empty = Текст повідомлення не може бути порожнім.
text-too-long = Текст повідомлення може містити щонайбільше { $max } { $max ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }, а містить { $got }.
title-invalid = Заголовок (title) може містити щонайбільше { $max } { $max ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    } і не може бути порожнім.
kind-unknown = Невідомий тип (kind) «{ $kind }»: очікується info, maintenance або outage.
audience-unknown = Невідома аудиторія (audience) «{ $audience }»: очікується everyone, signed_in або roles.
audience-roles-empty = Аудиторія (audience) «roles» потребує щонайменше однієї ролі.
roles-without-audience = Ролі (roles) дозволені лише з аудиторією (audience) «roles».
roles-invalid = Щонайбільше { $max-roles } { $max-roles ->
        [one] роль
        [few] ролі
        [many] ролей
       *[other] ролі
    }, кожна завдовжки від 1 до { $max-chars } символів без пробілів.
window-empty = Час valid_to має бути пізнішим за valid_from.
message-not-found = Повідомлення { $id } для цього клієнта не існує.
# Неприпустимі значення вже в лапках і екрановані.
markdown-raw-html = HTML-код у повідомленнях не дозволено (знайдено { $html }); використовуйте натомість Markdown.
markdown-unsafe-link = Адресу посилання { $destination } не дозволено; дозволено лише посилання http, https, mailto, tel і відносні посилання.
markdown-protocol-relative-link = Адресу посилання { $destination } не дозволено; замість початку з // напишіть повну адресу з https://.
markdown-heading-attribute = Атрибут заголовка { $attribute } не дозволено; дозволено лише {"{"}#id{"}"} і {"{"}.class{"}"}.

## Сховище.

# $constraint: назва порушеного обмеження унікальності.
resource-conflict = Запит суперечить наявним даним ({ $constraint }).

## Форми multipart (завантаження). $limit — у байтах, крім multipart-too-many-files.

multipart-content-type = Очікується тіло із заголовком Content-Type: multipart/form-data.
multipart-unknown-field = Невідоме поле форми «{ $field }».
multipart-field-too-large = Поле форми «{ $field }» завелике (щонайбільше { $limit } { $limit ->
        [one] байт
        [few] байти
        [many] байтів
       *[other] байта
    }).
multipart-too-many-files = Забагато файлів (щонайбільше { $limit }).
multipart-file-too-large = Файл у полі форми «{ $field }» завеликий (щонайбільше { $limit } { $limit ->
        [one] байт
        [few] байти
        [many] байтів
       *[other] байта
    }).
multipart-total-too-large = Дані форми загалом завеликі (щонайбільше { $limit } { $limit ->
        [one] байт
        [few] байти
        [many] байтів
       *[other] байта
    }).
multipart-not-utf8 = Поле форми «{ $field }» не містить коректного тексту в UTF-8.
multipart-missing-field = Поле форми «{ $field }» є обов’язковим.
multipart-malformed = Дані форми multipart мають неправильний формат: { $reason }

## Звернення (citizen-api): подання та списки.
report-field-empty = Поле { $field } не може бути порожнім.
report-field-too-long = Поле { $field } містить { $chars } { $chars ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }; дозволено щонайбільше { $max }.
order-by-location-needs-location = Для orderBy=location потрібен параметр location.
parameter-not-one-of = Параметр { $parameter } має бути одним зі значень { $allowed }, отримано { $value }.
report-not-found = Звернення з таким ідентифікатором не існує.
report-invalid-location = Параметр location не вдається розпізнати: він має бути у вигляді «довгота,широта» або «довгота,широта,радіус» у WGS84.
report-outside-city = Зазначене місце розташоване за межами території міста.
date-invalid = Параметр { $parameter } має бути датою й часом за ISO 8601, наприклад 2026-01-31T12:00:00Z, отримано { $value }.
date-range-reversed = dateFrom не може бути пізнішим за dateTo.
stats-period-invalid = dateFrom має бути раніше за dateTo, щонайбільше на { $days } днів.
stats-format-invalid = format має бути json або csv, отримано { $value }.
has-photo-invalid = hasPhoto має бути true або false.
parameter-repeated = Параметр { $parameter } можна зазначити лише один раз.
category-id-invalid = category має бути ідентифікатором категорії (UUID), отримано { $value }.
error-REPORT_NOT_FOUND = Такого звернення не існує.
location-invalid = location має бути у вигляді «довгота,широта» або «довгота,широта,радіус» у WGS84 з додатним радіусом у метрах, отримано { $value }.

## Робота службовців зі справами (citizen-api). $status — назва стану справи.
error-ISSUE_TRANSITION_NOT_ALLOWED = Стан справи не дозволяє цього кроку.
issue-not-open = Прийняти можна лише відкриту справу; ця справа має стан { $status }.
issue-not-accepted = Вирішити можна лише прийняту справу; ця справа має стан { $status }.
issue-cannot-move = Справу зі станом { $status } не можна перемістити.
issue-moved-not-duplicate = Переміщену справу не можна позначити як дублікат.
issue-duplicate-of-itself = Справа не може бути дублікатом самої себе.
issue-unsuitable-parent = Основна справа має стан { $status }; основна справа дубліката має бути відкритою, прийнятою або вирішеною.

## Голосування (citizen-api).
error-NOT_ENOUGH_VOTE_TOKENS = Недостатньо доступних голосів.
vote-count-too-small = count має бути щонайменше 1.
vote-not-enough-tokens = Запитано голосів: { $requested }, доступно лише { $available }; жодного голосу не віддано.
error-VOTE_TARGET_NOT_FOUND = З цим ідентифікатором немає нічого, за що можна проголосувати.
vote-target-not-found = Жодне звернення чи проєкт не має ідентифікатора { $target }.
vote-list-active = active має бути true або false.
vote-list-cursor = pagecursor має бути [inserted_at, token_id] (момент часу за RFC 3339 та ідентифікатор голосу) або раніше виданим nextCursor.
vote-list-cursor-filter = Курсор належить до іншого фільтра active, ніж запитаний.

## Видалення власних даних (citizen-api, DELETE /me).
erase-confirm = confirm має бути "ERASE": видалення Ваших даних неможливо скасувати.
erase-by-operator = Дані працівників міста видаляють оператори служби, а не цей запит.
data-export-not-found = За цим посиланням немає експорту або термін дії посилання минув: запросіть новий за допомогою POST /me/data-export.



# citizen-api: вкладення, CAPTCHA, обмеження частоти
## Вкладення звернень. $type — тип файлу (JPEG, PNG, …); $types — перелік прийнятних типів.
media-empty = Один із файлів у формі порожній.
media-unreadable = Один із файлів у формі не вдалося дочитати до кінця.
media-corrupt = Файл { $type } пошкоджений або неповний.
media-unsupported-type = Один із файлів має неприйнятний тип; прийнятні типи: { $types }.
media-metadata-not-removable = Файл { $type } містить дані про місце зйомки або камеру в такому вигляді, що їх неможливо видалити; будь ласка, перетворіть його у формат JPEG.
media-not-found = Такого файлу не існує.
## Idempotency-Key у POST /reports.
idempotency-key-invalid = Idempotency-Key має містити від 1 до 255 видимих символів ASCII, за потреби в подвійних лапках.
idempotency-key-in-use = Звернення з цим Idempotency-Key ще обробляється; повторіть спробу за мить.
idempotency-key-reused = Цей Idempotency-Key уже використано для іншої форми; для нового звернення використайте новий ключ.
## CAPTCHA анонімних звернень.
captcha-missing = Для подання звернення без входу в систему потрібен токен CAPTCHA (captchaToken).
captcha-rejected = Перевірку CAPTCHA не пройдено.
captcha-low-score = Перевірку CAPTCHA не пройдено; спробуйте, будь ласка, ще раз.
captcha-wrong-action = Токен CAPTCHA створено для іншої дії.
captcha-wrong-hostname = Токен CAPTCHA створено для іншого сайту.
captcha-unavailable = Зараз неможливо перевірити CAPTCHA; спробуйте, будь ласка, пізніше.
captcha-malformed-answer = Зараз неможливо перевірити CAPTCHA; спробуйте, будь ласка, пізніше.
captcha-timeout = Не вдалося вчасно перевірити CAPTCHA; спробуйте, будь ласка, пізніше.
## Обмеження частоти анонімних звернень. $seconds: скільки чекати.
rate-limit-reports = З Вашої адреси надійшло забагато звернень; спробуйте ще раз через { $seconds } { $seconds ->
        [one] секунду
        [few] секунди
        [many] секунд
       *[other] секунди
    }.

# новини
## Новини, категорії новин, підписки та проєкти (citizen-api). $field — назва поля тіла;
## $max — число; $category — ідентифікатор категорії.
error-CATEGORY_HAS_CHILDREN = Категорія ще має підкатегорії.
news-cursor-invalid = pagecursor має бути раніше виданим nextCursor: [дата, news_id] без параметра location, [відстань у метрах або "null", news_id] з ним.
news-item-not-found = Жодна новина не має такого ідентифікатора.
news-field-empty = Поле { $field } не може бути порожнім.
news-field-too-long = Поле { $field } може містити щонайбільше { $max } { $max ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }.
news-url-invalid = Поле { $field } має бути адресою http або https.
news-location-invalid = location має бути об’єктом GeoJSON Point із довготою та широтою у WGS84.
news-too-many = Поле { $field } може містити щонайбільше { $max } { $max ->
        [one] елемент
        [few] елементи
        [many] елементів
       *[other] елемента
    }.
news-category-unknown = Жодна категорія новин не має ідентифікатора { $category }.
news-id-not-accepted = id можна зазначати лише у файлі імпорту; ідентифікатор нової публікації призначає сервіс.
news-category-not-found = Жодна категорія новин не має такого ідентифікатора.
news-category-has-children = Категорія ще має підкатегорії; спершу перемістіть або видаліть їх.
news-category-parent-not-found = parent_id не відповідає жодній категорії новин.
news-category-cycle = Категорію не можна підпорядкувати їй самій або будь-якій із її підкатегорій.
news-category-view = view має бути flat або tree.
news-subscription-unknown = Жодна категорія новин не має ідентифікатора { $category }; нічого не змінено.
project-not-found = Жоден проєкт не має такого ідентифікатора.
project-cursor-invalid = pagecursor має бути [open_from, project_id] (момент часу за RFC 3339 та ідентифікатор проєкту), як його видано в nextCursor.
# адміністрування
error-ISSUE_NOT_FOUND = Такої справи не існує.
error-MEDIA_NOT_FOUND = Такого файлу не існує.
error-CATEGORY_IN_USE = Категорія використовується.
## Частина для службовців (citizen-api /admin/…). $max — обмеження.
issue-not-found = У Ваших категоріях немає справи з таким ідентифікатором.
report-category-not-found = Категорії звернень із таким ідентифікатором не існує.
overdue-invalid = overdue має бути true або false.
statement-final-invalid = final має бути true або false.
category-in-use = До цієї категорії вже віднесено звернення; її неможливо видалити.
category-default-required = Категорія за замовчуванням має існувати: натомість призначте категорією за замовчуванням іншу.
category-name-invalid = Назва категорії має містити від 1 до { $max } символів.
category-deadline-invalid = statement_deadline_days має бути від 1 до { $max } або null.
officer-subject-invalid = Ідентифікатор облікового запису службовця має містити від 1 до { $max } символів.
error-REPLY_TEMPLATE_NOT_FOUND = Такого шаблону відповіді не існує.
error-TOO_MANY_REPLY_TEMPLATES = Категорія вже має найбільшу дозволену кількість шаблонів відповідей.
reply-template-not-found = У ваших категоріях немає шаблону відповіді з таким ідентифікатором.
reply-template-title-invalid = Назва має містити від 1 до { $max } символів (без пробілів на початку й у кінці), а містить { $chars }.
reply-template-texts-empty = texts має містити текст щонайменше однією з мов cs, en, uk.
reply-template-language-unknown = texts може містити лише мови cs, en та uk, отримано { $value }.
reply-template-text-empty = Текст мовою { $language } не може бути порожнім.
reply-template-text-too-long = Текст мовою { $language } містить { $chars } { $chars ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }; дозволено щонайбільше { $max }.
reply-template-applies-on-invalid = applies_on має бути accepted, resolved або null, отримано { $value }.
reply-templates-too-many = Категорія може мати щонайбільше { $max } шаблонів відповідей; спершу видаліть якийсь.
# сповіщення
## Стрічка, позначки прочитання та налаштування (/me/notifications…).
notification-tags-empty = notificationTags має містити щонайменше один тег.
# $max: найбільша кількість тегів в одному запиті.
notification-tags-too-many = notificationTags містить понад { $max } { $max ->
        [one] тег
        [few] теги
        [many] тегів
       *[other] тегу
    }.
# $tag уже в лапках і екранований.
notification-tag-malformed = { $tag } не є тегом сповіщення.
# $count: скільки тегів не належить до сповіщень користувача.
notification-tags-not-own = { $count ->
        [1] Один тег не належить
        [one] { $count } тег не належить
        [few] { $count } теги не належать
        [many] { $count } тегів не належать
       *[other] { $count } тегу не належать
    } до Ваших сповіщень; нічого не позначено як прочитане.
notification-cursor = pagecursor має бути двома значеннями дати й часу: [sent_at, inserted_at].
error-WEBPUSH_ENDPOINT_NOT_ALLOWED = Адреса вебсповіщень (endpoint) не належить дозволеному push-сервісу.
error-INVALID_WEBPUSH_KEYS = Ключі підписки на вебсповіщення недійсні.
error-EMAIL_CLAIM_MISSING = У Вашому обліковому записі немає адреси електронної пошти.
# $host уже в лапках і екранований.
webpush-endpoint-not-allowed = endpoint має бути https-адресою дозволеного push-сервісу (не { $host }).
webpush-endpoint-invalid = endpoint не є https-адресою.
webpush-p256dh-invalid = keys.p256dh має бути нестиснутим відкритим ключем P-256 у base64url.
webpush-auth-invalid = keys.auth має містити 16 байтів у base64url.
webpush-subscription-not-found = У Вас немає підписки на вебсповіщення з таким endpoint.
email-claim-missing = Токен не містить атрибута (claim) email, тож невідомо, куди надсилати сповіщення.
email-unsubscribed = Ви більше не отримуватимете сповіщень електронною поштою.
email-unsubscribe-token-unknown = Жодна підписка на сповіщення електронною поштою не має такого токена для відписки (можливо, її вже припинено).
email-unsubscribe-title = Сповіщення електронною поштою
email-unsubscribe-question = Бажаєте припинити отримувати сповіщення електронною поштою?
email-unsubscribe-button = Відписатися
email-footer-unsubscribe = Відписатися
## Записи стрічки з подій outbox. $title: назва звернення; $status: новий стан справи.
notification-report-status-title = Ваше звернення має новий статус
notification-report-status-body = Звернення «{ $title }» { $status ->
        [accepted] прийнято
        [resolved] вирішено
        [duplicate] позначено як дублікат
       *[other] тепер має статус { $status }
    }.
notification-statement-title = Місто відповіло на звернення
notification-statement-body = Нова відповідь щодо звернення «{ $title }».
notification-news-title = Новина від міста
notification-news-body = «{ $title }»
notification-digest-title = { $count ->
    [1] Одне нове сповіщення
    [one] { $count } нове сповіщення
    [few] { $count } нові сповіщення
    [many] { $count } нових сповіщень
   *[other] { $count } нового сповіщення
}
notification-digest-more = { $count ->
    [1] … і ще одне
   *[other] … і ще { $count }
}

## Вхід для розробки у вебзастосунку (POST /dev/sign-in, лише для локального використання).

dev-sign-in-sub = sub має містити від 1 до { $max } символів без керувальних символів.
dev-sign-in-scopes = Щонайбільше { $max-scopes } { $max-scopes ->
        [one] дозвіл
        [few] дозволи
        [many] дозволів
       *[other] дозволу
    } (scopes), кожен завдовжки від 1 до { $max-chars } видимих символів ASCII без пробілів.
dev-sign-in-email = email має бути адресою електронної пошти завдовжки щонайбільше { $max } { $max ->
        [one] символ
        [few] символи
        [many] символів
       *[other] символу
    }.
dev-sign-in-locale = locale має бути одним зі значень: { $allowed }.
