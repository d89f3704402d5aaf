#include "ProfileEditor.h"

#include "SpinBoxes.h"
#include "judge/ApiKeySource.h"
#include "judge/EndpointSecrets.h"
#include "judge/Provider.h"
#include "judge/ProviderProfiles.h"
#include "judge/StructuredAnswers.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>

namespace rubric {
namespace {

enum class KeySource { None, Environment, Keychain };

/// The Replicas field into `p`: one URL a line, optionally followed by a positive weight (1 where
/// none is given; the base URL weighs `baseWeight`). The first line that does not read that way
/// ("" when every line does).
QString readReplicas(const QString &text, double baseWeight, ProviderProfile &p)
{
    p.replicaUrls.clear();
    p.replicaWeights.clear();
    QVector<double> weights{baseWeight};
    for (const QString &line : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList parts = line.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (parts.isEmpty())
            continue;
        bool ok = true;
        const double weight = parts.size() == 2 ? parts[1].toDouble(&ok) : 1.0;
        if (parts.size() > 2 || !ok || weight <= 0)
            return line.trimmed();
        p.replicaUrls << parts[0];
        weights << weight;
    }
    if (std::any_of(weights.cbegin(), weights.cend(), [](double w) { return w != 1.0; }))
        p.replicaWeights = weights;
    return {};
}

} // namespace

ProfileEditor::ProfileEditor(QWidget *parent)
    : QGroupBox(tr("Provider profiles"), parent)
    , m_profiles(std::make_unique<ProviderProfiles>())
{
    setObjectName(QStringLiteral("profileEditor"));
    qRegisterMetaType<rubric::ConnectionTestResult>();

    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("profileList"));
    m_list->setMaximumHeight(110);
    connect(m_list, &QListWidget::currentTextChanged, this, &ProfileEditor::loadProfile);

    m_name = new QLineEdit(this);
    m_name->setObjectName(QStringLiteral("profileName"));
    m_provider = new QComboBox(this);
    m_provider->setObjectName(QStringLiteral("profileProvider"));
    m_provider->addItem(tr("OpenAI-compatible"), Provider::kindName(ProviderKind::OpenAI));
    m_provider->addItem(tr("Anthropic"), Provider::kindName(ProviderKind::Anthropic));
    m_baseUrl = new QLineEdit(this);
    m_baseUrl->setObjectName(QStringLiteral("profileBaseUrl"));
    m_baseUrl->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000/v1"));
    m_replicas = new QPlainTextEdit(this);
    m_replicas->setObjectName(QStringLiteral("profileReplicas"));
    m_replicas->setPlaceholderText(QStringLiteral("http://gpu2:8000/v1\nhttp://gpu3:8000/v1 2"));
    m_replicas->setTabChangesFocus(true);
    m_replicas->setMaximumHeight(m_replicas->fontMetrics().lineSpacing() * 4 + 12);
    m_replicas->setToolTip(tr("More base URLs serving the same model (replicas), one a line, each optionally "
                              "followed by its weight (1 if none; the base URL weighs 1). Each replica takes the "
                              "concurrency and rate limits times its weight; requests go where most capacity is "
                              "free, and a replica that fails is drained and tried again later. Answers are cached "
                              "under the model, whichever replica gave them."));
    m_model = new QLineEdit(this);
    m_model->setObjectName(QStringLiteral("profileModel"));
    m_keySource = new QComboBox(this);
    m_keySource->setObjectName(QStringLiteral("profileKeySource"));
    m_keySource->addItem(tr("No key"), int(KeySource::None));
    m_keySource->addItem(tr("Environment variable"), int(KeySource::Environment));
    m_keySource->addItem(tr("System keychain"), int(KeySource::Keychain));
    if (!ApiKeySource::keychainAvailable())
        m_keySource->setItemData(2, false, Qt::UserRole - 1); // disabled item
    m_keySource->setToolTip(tr("The key is never stored in a profile or a project: name the environment variable "
                               "that holds it, or keep it in the system keychain under the profile's name."));
    m_keyEnv = new QLineEdit(this);
    m_keyEnv->setObjectName(QStringLiteral("profileKeyEnv"));
    m_keyEnv->setPlaceholderText(QStringLiteral("OPENAI_API_KEY"));
    m_headers = new QLineEdit(this);
    m_headers->setObjectName(QStringLiteral("profileHeaders"));
    m_headers->setPlaceholderText(QStringLiteral("X-Org=env:ORG_ID; X-Team=team-token"));
    m_headers->setToolTip(tr("Extra HTTP headers, separated by ';'. A header's value is never stored in the "
                             "profile: give it as NAME=env:VARIABLE to read it from an environment variable, or "
                             "type the value (NAME=value) and Save puts it in the system keychain and keeps only "
                             "a reference (NAME=keychain:…)."));
    connect(m_keySource, &QComboBox::currentIndexChanged, this,
            [this] { m_keyEnv->setEnabled(m_keySource->currentData().toInt() == int(KeySource::Environment)); });

    m_priceIn = makeDoubleSpinBox(this, QStringLiteral("profilePriceIn"), 0, 10000, 3,
                                  tr("Price of one million input (prompt) tokens, for estimates and the ledger."));
    m_priceOut = makeDoubleSpinBox(this, QStringLiteral("profilePriceOut"), 0, 10000, 3,
                                   tr("Price of one million output (answer) tokens."));
    // The lowest value reads "as input": no cached price known, cached tokens cost the input price.
    m_priceCached = makeDoubleSpinBox(this, QStringLiteral("profilePriceCached"), -1, 10000, 3,
                                      tr("Price of one million input tokens the provider reads from its prompt cache "
                                         "(reported in its answers' usage); \"as input\" where it gives no discount."));
    m_priceCached->setSpecialValueText(tr("as input"));
    for (QDoubleSpinBox *price : {m_priceIn, m_priceCached, m_priceOut})
        price->setSuffix(tr(" / 1M tokens"));
    m_concurrency = makeSpinBox(this, QStringLiteral("profileConcurrency"), 1, 512,
                                tr("Requests in flight to this endpoint at the same time."));
    m_rpm = makeDoubleSpinBox(this, QStringLiteral("profileRpm"), 0, 1e7, 0,
                              tr("Requests per minute allowed by the provider (0 = unlimited)."));
    m_tpm = makeDoubleSpinBox(this, QStringLiteral("profileTpm"), 0, 1e10, 0,
                              tr("Tokens per minute allowed by the provider (0 = unlimited)."));
    for (QDoubleSpinBox *limit : {m_rpm, m_tpm})
        limit->setSpecialValueText(tr("unlimited"));
    m_timeout = makeSpinBox(this, QStringLiteral("profileTimeout"), 1, 3600,
                            tr("How long one request may take before it is retried."));
    m_timeout->setSuffix(tr(" s"));
    m_deadline = makeSpinBox(this, QStringLiteral("profileDeadline"), 1, 7200,
                             tr("The most one call may take from sending to its last byte, however slowly the answer "
                                "trickles in; past it the call fails and is not retried. Leave room for reasoning "
                                "models that think for minutes."));
    m_deadline->setSuffix(tr(" s"));
    m_maxResponse = makeSpinBox(this, QStringLiteral("profileMaxResponse"), 1, 4096,
                                tr("The largest answer read; a longer one is cut off and the call fails, so that a "
                                   "broken or hostile endpoint cannot fill the memory."));
    m_maxResponse->setSuffix(tr(" MB"));
    m_retries = makeSpinBox(this, QStringLiteral("profileRetries"), 0, 50,
                            tr("Retries of a failed request (429, 5xx, network errors) with backoff."));
    m_reasoningBudget = makeSpinBox(this, QStringLiteral("profileReasoningBudget"), 0, 1000000,
                                    tr("Tokens a reasoning model may think on top of each request's max_tokens. "
                                       "Raised only once an answer shows the model thinks (empty, cut off at the "
                                       "budget); from then on every request of the run gets it."));
    m_reasoningBudget->setSuffix(tr(" tokens"));
    m_reasoningBudget->setSpecialValueText(tr("never raise"));
    m_structured = new QComboBox(this);
    m_structured->setObjectName(QStringLiteral("profileStructured"));
    m_structured->addItem(tr("Off: read the text"), StructuredAnswers::modeName(StructuredMode::Off));
    m_structured->addItem(tr("JSON schema (OpenAI, vLLM)"), StructuredAnswers::modeName(StructuredMode::JsonSchema));
    m_structured->addItem(tr("guided_json (older vLLM)"), StructuredAnswers::modeName(StructuredMode::GuidedJson));
    m_structured->addItem(tr("Grammar (llama.cpp server)"), StructuredAnswers::modeName(StructuredMode::LlamaGrammar));
    // Its longest entry must not widen the form past the pane's column (the column scrolled and cut
    // off the Delete button); the open list still shows the entries whole.
    m_structured->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_structured->setMinimumContentsLength(10);
    m_structured->setToolTip(tr("Ask for scores and yes/no answers as JSON of a schema, in the form the endpoint "
                                "offers. An endpoint that ignores it is read as text; one that refuses it is "
                                "asked without it. Not sent to Anthropic."));

    auto *form = new QFormLayout;
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Provider:"), m_provider);
    form->addRow(tr("&Base URL:"), m_baseUrl);
    form->addRow(tr("&Replicas:"), m_replicas);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("&Key from:"), m_keySource);
    form->addRow(tr("&Variable:"), m_keyEnv);
    form->addRow(tr("&Headers:"), m_headers);
    form->addRow(tr("Price &in:"), m_priceIn);
    form->addRow(tr("Price in, &cached:"), m_priceCached);
    form->addRow(tr("Price &out:"), m_priceOut);
    form->addRow(tr("&Concurrency:"), m_concurrency);
    form->addRow(tr("Requests/min:"), m_rpm);
    form->addRow(tr("Tokens/min:"), m_tpm);
    form->addRow(tr("Timeout:"), m_timeout);
    form->addRow(tr("Deadline:"), m_deadline);
    form->addRow(tr("Largest answer:"), m_maxResponse);
    form->addRow(tr("Retries:"), m_retries);
    form->addRow(tr("Reasoning budget:"), m_reasoningBudget);
    form->addRow(tr("Structured &answers:"), m_structured);

    auto *newButton = new QPushButton(tr("Ne&w"), this);
    newButton->setObjectName(QStringLiteral("profileNew"));
    connect(newButton, &QPushButton::clicked, this, &ProfileEditor::newProfile);
    auto *saveButton = new QPushButton(tr("&Save"), this);
    saveButton->setObjectName(QStringLiteral("profileSave"));
    connect(saveButton, &QPushButton::clicked, this, &ProfileEditor::saveProfile);
    auto *deleteButton = new QPushButton(tr("&Delete"), this);
    deleteButton->setObjectName(QStringLiteral("profileDelete"));
    connect(deleteButton, &QPushButton::clicked, this, &ProfileEditor::deleteProfile);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(newButton);
    buttons->addWidget(saveButton);
    buttons->addWidget(deleteButton);

    m_testButton = new QPushButton(tr("&Test connection"), this);
    m_testButton->setObjectName(QStringLiteral("testConnection"));
    m_testButton->setToolTip(tr("Sends one short rating prompt with the profile as edited (not saved yet) and shows "
                                "the answer, the latency and whether logprobs came back."));
    connect(m_testButton, &QPushButton::clicked, this, &ProfileEditor::testConnection);
    m_connectionResult = new QLabel(this);
    m_connectionResult->setObjectName(QStringLiteral("connectionResult"));
    m_connectionResult->setTextFormat(Qt::PlainText); // quotes the server's reply
    m_connectionResult->setWordWrap(true);
    m_connectionResult->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    auto *v = new QVBoxLayout(this);
    v->addWidget(m_list);
    v->addLayout(form);
    v->addLayout(buttons);
    v->addWidget(m_testButton);
    v->addWidget(m_connectionResult);
    v->addStretch(1);
    newProfile();
    refill();
}

ProfileEditor::~ProfileEditor() = default;

void ProfileEditor::setSettingsFile(const QString &settingsFile)
{
    m_profiles = settingsFile.isEmpty() ? std::make_unique<ProviderProfiles>()
                                        : std::make_unique<ProviderProfiles>(settingsFile);
    refill();
    emit profilesChanged();
}

void ProfileEditor::refill(const QString &select)
{
    {
        const QSignalBlocker block(m_list);
        m_list->clear();
        m_list->addItems(m_profiles->names());
    }
    if (!select.isEmpty()) {
        const auto found = m_list->findItems(select, Qt::MatchExactly);
        if (!found.isEmpty())
            m_list->setCurrentItem(found.first());
    }
}

void ProfileEditor::loadProfile(const QString &name)
{
    const auto p = m_profiles->load(name);
    if (!p)
        return;
    m_name->setText(p->name);
    m_provider->setCurrentIndex(m_provider->findData(Provider::kindName(p->kind)));
    m_baseUrl->setText(p->baseUrl);
    m_baseWeight = p->replicaWeight(0);
    QStringList replicas;
    for (qsizetype i = 0; i < p->replicaUrls.size(); ++i) {
        const double weight = p->replicaWeight(i + 1);
        replicas << (weight == 1.0 ? p->replicaUrls[i]
                                   : QString(p->replicaUrls[i] + QLatin1Char(' ') + QString::number(weight)));
    }
    m_replicas->setPlainText(replicas.join(QLatin1Char('\n')));
    m_model->setText(p->model);
    const KeySource source = p->useKeychain           ? KeySource::Keychain
                             : p->apiKeyEnv.isEmpty() ? KeySource::None
                                                      : KeySource::Environment;
    m_keySource->setCurrentIndex(m_keySource->findData(int(source)));
    m_keyEnv->setText(p->apiKeyEnv);
    QStringList headers;
    for (auto it = p->headers.cbegin(); it != p->headers.cend(); ++it)
        headers << it.key() + QLatin1Char('=')
                           + (EndpointSecrets::isReference(it.value().toString())
                                      ? it.value().toString()
                                      : QString()); // a value stored by an older version
    m_headers->setText(headers.join(QStringLiteral("; ")));
    m_priceIn->setValue(p->pricePerMillionIn);
    m_priceCached->setValue(std::max(-1.0, p->pricePerMillionCached));
    m_priceOut->setValue(p->pricePerMillionOut);
    m_concurrency->setValue(p->concurrency);
    m_rpm->setValue(p->requestsPerMinute);
    m_tpm->setValue(p->tokensPerMinute);
    m_timeout->setValue(qMax(1, p->timeoutMs / 1000));
    m_deadline->setValue(qMax(1, p->deadlineMs / 1000));
    m_maxResponse->setValue(int(qMax<qint64>(1, p->maxResponseBytes / (1024 * 1024))));
    m_retries->setValue(p->maxRetries);
    m_reasoningBudget->setValue(p->reasoningBudget);
    m_structured->setCurrentIndex(m_structured->findData(StructuredAnswers::modeName(p->structuredAnswers)));
    m_connectionResult->clear();
}

ProviderProfile ProfileEditor::editedProfile() const
{
    ProviderProfile p;
    p.name = m_name->text().trimmed();
    p.kind = Provider::kindFromName(m_provider->currentData().toString()).value_or(ProviderKind::OpenAI);
    p.baseUrl = m_baseUrl->text().trimmed();
    readReplicas(m_replicas->toPlainText(), m_baseWeight, p); // a line that does not read: refused by Save
    p.model = m_model->text().trimmed();
    const auto source = KeySource(m_keySource->currentData().toInt());
    p.apiKeyEnv = source == KeySource::Environment ? m_keyEnv->text().trimmed() : QString();
    p.useKeychain = source == KeySource::Keychain;
    for (const QString &h : m_headers->text().split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const qsizetype eq = h.indexOf(QLatin1Char('='));
        p.headers.insert((eq < 0 ? h : h.left(eq)).trimmed(), eq < 0 ? QString() : h.mid(eq + 1).trimmed());
    }
    p.pricePerMillionIn = m_priceIn->value();
    p.pricePerMillionCached = m_priceCached->value() < 0 ? -1 : m_priceCached->value();
    p.pricePerMillionOut = m_priceOut->value();
    p.concurrency = m_concurrency->value();
    p.requestsPerMinute = m_rpm->value();
    p.tokensPerMinute = m_tpm->value();
    p.timeoutMs = m_timeout->value() * 1000;
    p.deadlineMs = m_deadline->value() * 1000;
    p.maxResponseBytes = qint64(m_maxResponse->value()) * 1024 * 1024;
    p.maxRetries = m_retries->value();
    p.reasoningBudget = m_reasoningBudget->value();
    p.structuredAnswers
            = StructuredAnswers::modeFromName(m_structured->currentData().toString()).value_or(StructuredMode::Off);
    return p;
}

void ProfileEditor::newProfile()
{
    const ProviderProfile defaults;
    const QSignalBlocker block(m_list);
    m_list->setCurrentRow(-1);
    m_name->clear();
    m_provider->setCurrentIndex(0);
    m_baseUrl->clear();
    m_replicas->clear();
    m_baseWeight = 1;
    m_model->clear();
    m_keySource->setCurrentIndex(m_keySource->findData(int(KeySource::Environment)));
    m_keyEnv->clear();
    m_headers->clear();
    m_priceIn->setValue(defaults.pricePerMillionIn);
    m_priceCached->setValue(defaults.pricePerMillionCached);
    m_priceOut->setValue(defaults.pricePerMillionOut);
    m_concurrency->setValue(defaults.concurrency);
    m_rpm->setValue(defaults.requestsPerMinute);
    m_tpm->setValue(defaults.tokensPerMinute);
    m_timeout->setValue(defaults.timeoutMs / 1000);
    m_deadline->setValue(defaults.deadlineMs / 1000);
    m_maxResponse->setValue(int(defaults.maxResponseBytes / (1024 * 1024)));
    m_retries->setValue(defaults.maxRetries);
    m_reasoningBudget->setValue(defaults.reasoningBudget);
    m_structured->setCurrentIndex(0);
    m_connectionResult->clear();
    m_name->setFocus();
}

void ProfileEditor::saveProfile()
{
    ProviderProfile p = editedProfile();
    if (p.model.isEmpty()) {
        emit messageRaised(tr("The profile needs a model name."), true);
        return;
    }
    if (const QString bad = readReplicas(m_replicas->toPlainText(), m_baseWeight, p); !bad.isEmpty()) {
        emit messageRaised(tr("The profile was not saved: the replica line '%1' is not a URL followed by an optional "
                              "positive weight.")
                                   .arg(bad),
                           true);
        return;
    }
    // A header value typed as it is goes to the keychain; the profile keeps only its reference.
    // Headers the profile refuses whatever their value (the API key's) are refused first, so
    // that nothing is put in the keychain for them.
    QVariantMap asReferences = p.headers;
    for (QVariant &v : asReferences)
        if (!v.toString().isEmpty() && !EndpointSecrets::isReference(v.toString()))
            v = QStringLiteral("keychain:typed");
    if (auto r = EndpointSecrets::checkHeaders(asReferences); !r) {
        emit messageRaised(tr("The profile was not saved: %1").arg(r.errorString()), true);
        return;
    }
    QList<QPair<QString, QByteArray>> typed; // account → value
    for (auto it = p.headers.begin(); it != p.headers.end(); ++it) {
        const QString value = it.value().toString();
        if (value.isEmpty() || EndpointSecrets::isReference(value))
            continue;
        if (p.name.isEmpty()) {
            emit messageRaised(tr("The profile needs a name before a header value can be kept in the keychain."), true);
            return;
        }
        if (!ApiKeySource::keychainAvailable()) {
            emit messageRaised(tr("The profile was not saved: this build has no keychain for the value of the header "
                                  "'%1'; give it as %1=env:VARIABLE instead.")
                                       .arg(it.key()),
                               true);
            return;
        }
        const QString name = EndpointSecrets::keychainNameFor(p.name, it.key());
        typed.append({EndpointSecrets::keychainAccount(name), value.toUtf8()});
        it.value() = QString(QStringLiteral("keychain:") + name);
    }
    if (typed.isEmpty()) {
        storeProfile(p);
        return;
    }
    auto remaining = std::make_shared<int>(int(typed.size()));
    auto refused = std::make_shared<bool>(false);
    for (const auto &[account, value] : std::as_const(typed)) {
        auto *keychain = new ApiKeySource(p, this);
        connect(keychain, &ApiKeySource::stored, this, [this, keychain, remaining, refused, p] {
            keychain->deleteLater();
            if (--*remaining == 0 && !*refused)
                storeProfile(p);
        });
        connect(keychain, &ApiKeySource::failed, this, [this, keychain, refused](const QString &reason) {
            keychain->deleteLater();
            if (std::exchange(*refused, true))
                return;
            emit messageRaised(tr("The profile was not saved: %1").arg(reason), true);
        });
        keychain->store(account, value);
    }
}

void ProfileEditor::storeProfile(const ProviderProfile &p)
{
    if (auto r = m_profiles->save(p); !r) {
        emit messageRaised(tr("The profile was not saved: %1").arg(r.errorString()), true);
        return;
    }
    m_profiles->sync();
    refill(p.name);
    emit profilesChanged();
    emit messageRaised(tr("Profile '%1' saved.").arg(p.name), false);
}

void ProfileEditor::deleteProfile()
{
    QListWidgetItem *current = m_list->currentItem();
    if (!current)
        return;
    const QString name = current->text();
    m_profiles->remove(name);
    m_profiles->sync();
    refill();
    newProfile();
    emit profilesChanged();
    emit messageRaised(tr("Profile '%1' deleted.").arg(name), false);
}

void ProfileEditor::testConnection()
{
    if (m_connectionTest)
        return;
    const ProviderProfile p = editedProfile();
    if (p.baseUrl.isEmpty() || p.model.isEmpty()) {
        m_connectionResult->setText(tr("Enter a base URL and a model first."));
        return;
    }
    if (auto url = EndpointSecrets::checkBaseUrl(p.baseUrl); !url) {
        m_connectionResult->setText(url.errorString());
        return;
    }
    if (auto headers = EndpointSecrets::checkHeaders(p.headers); !headers) {
        m_connectionResult->setText(headers.errorString());
        return;
    }
    m_connectionTest = new ConnectionTest(p, this);
    connect(m_connectionTest, &ConnectionTest::finished, this, &ProfileEditor::onConnectionTested);
    m_connectionResult->setText(tr("Testing %1 …").arg(EndpointSecrets::stripUrl(p.baseUrl)));
    m_testButton->setEnabled(false);
    m_connectionTest->start();
}

void ProfileEditor::onConnectionTested(const ConnectionTestResult &r)
{
    if (m_connectionTest)
        m_connectionTest->deleteLater();
    m_connectionTest = nullptr;
    m_testButton->setEnabled(true);
    // What the endpoint refused and how the test asked instead: a run does the same.
    const QString adapted
            = r.adapted.isEmpty() ? QString() : tr(" · adapted: %1").arg(r.adapted.join(QStringLiteral("; ")));
    if (!r.ok) {
        m_connectionResult->setProperty("ok", false);
        m_connectionResult->setText((r.httpStatus ? tr("Failed: HTTP %1 — %2").arg(r.httpStatus).arg(r.error)
                                                  : tr("Failed: %1").arg(r.error))
                                    + adapted);
        return;
    }
    m_connectionResult->setProperty("ok", true);
    QString text = tr("OK · HTTP %1 · %2 ms · answer “%3” · %4 tokens in, %5 out · logprobs: %6")
                           .arg(r.httpStatus)
                           .arg(QLocale().toString(r.latencyMs, 'f', 0), r.answer.trimmed().left(80))
                           .arg(r.tokensIn)
                           .arg(r.tokensOut)
                           .arg(r.logprobs ? tr("yes") : tr("no"));
    if (r.choicesAsked > 1)
        text += r.choicesReturned >= r.choicesAsked
                        ? tr(" · n: honoured")
                        : tr(" · n: ignored (%1 of %2 choices; G-Eval asks its samples one at a time)")
                                  .arg(r.choicesReturned)
                                  .arg(r.choicesAsked);
    if (r.retries)
        text += tr(" · %n retry(s)", nullptr, r.retries);
    m_connectionResult->setText(text + adapted);
}

} // namespace rubric
