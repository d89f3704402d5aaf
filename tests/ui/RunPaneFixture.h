// The run pane on a project of 24 items, a loopback FakeLlmServer answering as a SyntheticJudge, and
// the helpers its tests share (a profile through the editor, a G-Eval form, waiting for the run):
// TestRunPane (profiles, G-Eval runs, cancel, resume, errors) and TestRunPaneHypoEval (the HypoEval
// form) both derive from it.
#pragma once

#include "RunFixture.h"
#include "UiTestProject.h"
#include "models/RunController.h"
#include "panes/RunPane.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace rubric::test {

class RunPaneFixture : public QObject
{
protected:
    template <typename T> T *child(const char *name) const
    {
        auto *w = m_pane->findChild<T *>(QString::fromLatin1(name));
        if (!w)
            qFatal("no child %s", name);
        return w;
    }

    void setUpPane()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_settingsFile = m_dir->filePath(QStringLiteral("profiles.ini"));
        m_fx = fixture::makeRunProject(m_dir->filePath(QStringLiteral("run.rubric")), 24);
        m_judge = std::make_unique<SyntheticJudge>(m_fx.humanByOutput);
        m_server = std::make_unique<FakeLlmServer>();
        QVERIFY(m_server->listen());
        m_server->setJudge([this](const QJsonObject &body) { return m_judge->answer(body); });
        m_pane = std::make_unique<RunPane>();
        m_pane->setProfileSettingsFile(m_settingsFile);
        m_pane->setProject(m_fx.project.get());
        m_pane->resize(1300, 800);
        m_pane->show();
    }

    void tearDownPane()
    {
        m_pane.reset();
        m_server.reset();
        m_fx.project.reset();
        m_dir.reset();
    }

    /// A profile saved through the editor, as a user adds one.
    void addProfile(const QString &name, const QString &baseUrl, int concurrency = 4)
    {
        child<QPushButton>("profileNew")->click();
        child<QLineEdit>("profileName")->setText(name);
        child<QLineEdit>("profileBaseUrl")->setText(baseUrl);
        child<QLineEdit>("profileModel")->setText(QStringLiteral("synthetic"));
        auto *keySource = child<QComboBox>("profileKeySource");
        keySource->setCurrentIndex(0); // no key
        child<QSpinBox>("profileConcurrency")->setValue(concurrency);
        child<QSpinBox>("profileRetries")->setValue(1);
        child<QPushButton>("profileSave")->click();
    }

    /// G-Eval on coherence over the test split, with log-probabilities.
    void fillGEval(const QString &judge, const QString &profile)
    {
        auto *method = child<QComboBox>("method");
        method->setCurrentIndex(method->findData(QStringLiteral("geval")));
        child<QComboBox>("aspect")->setCurrentText(QStringLiteral("coherence"));
        child<QLineEdit>("judgeName")->setText(judge);
        auto *items = child<QComboBox>("items");
        items->setCurrentIndex(items->findData(QStringLiteral("test")));
        auto *evaluator = child<QComboBox>("evaluatorProfile");
        evaluator->setCurrentIndex(evaluator->findData(profile));
        child<QCheckBox>("param_logprobs")->setChecked(true);
    }

    bool waitIdle(int ms = 60000)
    {
        return QTest::qWaitFor([this] { return !m_pane->controller()->isRunning(); }, ms);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    fixture::RunProject m_fx;
    std::unique_ptr<FakeLlmServer> m_server;
    std::unique_ptr<SyntheticJudge> m_judge;
    std::unique_ptr<RunPane> m_pane;
    QString m_settingsFile;
};

} // namespace rubric::test
