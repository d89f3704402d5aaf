#include "BenchRegistry.h"

#include <algorithm>

namespace rubric::cli {
namespace {

QVector<Bench> &table()
{
    static QVector<Bench> benches;
    return benches;
}

int run(const QStringList &args, Io &io)
{
    const auto usage = [](QTextStream &s) {
        s << "usage: rubric bench <name> [options]   (rubric bench <name> --help for its options)\n\nbenchmarks:\n";
        for (const Bench &b : BenchRegistry::all())
            s << "  " << b.name.leftJustified(20) << b.summary << '\n';
    };
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        usage(args.isEmpty() ? io.err : io.out);
        return args.isEmpty() ? 2 : 0;
    }
    const Bench *bench = BenchRegistry::find(args.first());
    if (!bench) {
        io.err << "rubric bench: unknown benchmark '" << args.first() << "'\n\n";
        usage(io.err);
        return 2;
    }
    return bench->run(args.mid(1), io);
}

const Registration reg({QStringLiteral("bench"), QStringLiteral("Run a benchmark (rubric bench <name>)."), &run});

} // namespace

void BenchRegistry::add(const Bench &bench)
{
    auto &t = table();
    t.append(bench);
    std::sort(t.begin(), t.end(), [](const Bench &a, const Bench &b) { return a.name < b.name; });
}

const QVector<Bench> &BenchRegistry::all()
{
    return table();
}

const Bench *BenchRegistry::find(const QString &name)
{
    for (const Bench &b : table())
        if (b.name == name)
            return &b;
    return nullptr;
}

BenchRegistration::BenchRegistration(QString name, QString summary, int (*run)(const QStringList &, Io &))
{
    BenchRegistry::add(Bench{std::move(name), std::move(summary), run});
}

} // namespace rubric::cli
