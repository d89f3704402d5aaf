#!/usr/bin/python3
"""Reference figures for tests/learn/TestModelReference.cpp, computed with scikit-learn outside the
code under test (issue 31, defect 7).

  /usr/bin/python3 tests/learn/make_model_reference.py     # writes model_reference.json

1. The MLP's objective and gradient. scikit-learn's MLPRegressor minimises
       0.5 * mean((y - f(x))^2) + (alpha / (2 n)) * sum(W^2)
   (its _backprop: squared_loss / 2 plus 0.5 * alpha * ||W||^2 / n_samples). Our MlpModel minimises
   0.5 * mean(err^2) + 0.5 * decay * ||W||^2 on standardised inputs and target, so decay = alpha / n.
   For fixed weights (drawn here) the file holds scikit-learn's loss and gradients at alpha = 3
   (decay 0.1 at n = 30).
2. Fit quality: MLPRegressor (16 ReLU units, adam, learning rate 0.01, 200 full-batch epochs,
   alpha = decay * n, no early stop) on standardised inputs and target, test r averaged over seeds.
3. Trees: DecisionTreeRegressor(max_depth) predictions on continuous features (no tied splits),
   which one xgboost tree with eta 1, lambda 0, exact splits must equal; RandomForestRegressor and
   GradientBoostingRegressor test r for the forest and boosted kinds.
"""
import json
import os

import numpy as np
from scipy.stats import pearsonr
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor
from sklearn.neural_network import MLPRegressor
from sklearn.tree import DecisionTreeRegressor

HERE = os.path.dirname(os.path.abspath(__file__))


def data(n, p, seed):
    """Node scores 1-5 and a nonlinear human score (a V, a step, an interaction) plus noise."""
    rng = np.random.default_rng(seed)
    x = rng.integers(1, 6, size=(n, p)).astype(float)
    y = (1.5 * np.abs(x[:, 0] - 3) + (x[:, 1] > 3) + 1.5 * ((x[:, 2] > 3) & (x[:, 3] > 3))
         + 0.5 * x[:, 4] + rng.normal(0, 0.3, size=n))
    return x, np.round(y, 4)


def standardise(x, y, xt):
    mx, sx = x.mean(0), x.std(0)
    sx[sx < 1e-12] = 1
    my, sy = y.mean(), y.std()
    return (x - mx) / sx, (y - my) / sy, (xt - mx) / sx, my, sy


def gradient_reference():
    n, p, h = 30, 6, 5
    x, y = data(n, p, 3)
    xs, ys, _, _, _ = standardise(x, y, x)
    rng = np.random.default_rng(5)
    w1 = rng.normal(0, 0.5, size=(p, h))
    b1 = rng.normal(0, 0.1, size=h)
    w2 = rng.normal(0, 0.5, size=(h, 1))
    b2 = rng.normal(0, 0.1, size=1)
    alpha = 3.0
    m = MLPRegressor(hidden_layer_sizes=(h,), activation="relu", alpha=alpha)
    m.n_layers_ = 3
    m.n_outputs_ = 1
    m.out_activation_ = "identity"
    m.coefs_ = [w1.copy(), w2.copy()]
    m.intercepts_ = [b1.copy(), b2.copy()]
    activations = [xs, np.empty((n, h)), np.empty((n, 1))]
    deltas = [np.empty_like(a) for a in activations[1:]]
    coef_grads = [np.empty_like(w1), np.empty_like(w2)]
    intercept_grads = [np.empty_like(b1), np.empty_like(b2)]
    loss, coef_grads, intercept_grads = m._backprop(xs, ys.reshape(-1, 1), activations, deltas, coef_grads,
                                                    intercept_grads)
    return {"x_standardised": xs.tolist(), "y_standardised": ys.tolist(), "alpha": alpha, "n": n,
            "w1": w1.T.tolist(), "b1": b1.tolist(), "w2": w2[:, 0].tolist(), "b2": float(b2[0]),
            "loss": float(loss), "grad_w1": coef_grads[0].T.tolist(), "grad_b1": intercept_grads[0].tolist(),
            "grad_w2": coef_grads[1][:, 0].tolist(), "grad_b2": float(intercept_grads[1][0])}


def fit_reference():
    out = {"sets": []}
    for n in (30, 100):
        x, y = data(n + 200, 8, 11 + n)
        xtr, ytr, xte, yte = x[:n], y[:n], x[n:], y[n:]
        xs, ys, xts, my, sy = standardise(xtr, ytr, xte)
        mlp = []
        for seed in range(1, 6):
            m = MLPRegressor(hidden_layer_sizes=(16,), activation="relu", solver="adam", alpha=0.1 * n,
                             learning_rate_init=0.01, max_iter=200, batch_size=n, shuffle=False, tol=0.0,
                             n_iter_no_change=10**6, early_stopping=False, random_state=seed)
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                m.fit(xs, ys)
            mlp.append(pearsonr(m.predict(xts) * sy + my, yte)[0])
        tree = DecisionTreeRegressor(max_depth=3, random_state=0)
        # continuous features for the exact tree comparison: no two splits gain alike
        rng = np.random.default_rng(n)
        xc = np.round(x + rng.uniform(-0.45, 0.45, size=x.shape), 3)
        tree.fit(xc[:n], ytr)
        forest = [pearsonr(RandomForestRegressor(n_estimators=100, max_depth=6, max_samples=0.8,
                                                 max_features=0.8, random_state=s).fit(xtr, ytr).predict(xte),
                           yte)[0] for s in range(1, 6)]
        boosted = pearsonr(GradientBoostingRegressor(n_estimators=100, max_depth=3, learning_rate=0.1,
                                                     random_state=1).fit(xtr, ytr).predict(xte), yte)[0]
        out["sets"].append({"n_train": n, "x": x.tolist(), "y": y.tolist(), "x_continuous": xc.tolist(),
                            "mlp_test_r": float(np.mean(mlp)), "mlp_test_r_seeds": [float(v) for v in mlp],
                            "tree_depth": 3, "tree_predictions": tree.predict(xc).tolist(),
                            "forest_test_r": float(np.mean(forest)), "boosted_test_r": float(boosted)})
    return out


def main():
    ref = {"gradient": gradient_reference(), "fits": fit_reference()}
    with open(os.path.join(HERE, "model_reference.json"), "w") as f:
        json.dump(ref, f)
        f.write("\n")
    for s in ref["fits"]["sets"]:
        print(f"n={s['n_train']}: sklearn mlp test r {s['mlp_test_r']:.3f}, forest {s['forest_test_r']:.3f}, "
              f"boosted {s['boosted_test_r']:.3f}")


if __name__ == "__main__":
    main()
