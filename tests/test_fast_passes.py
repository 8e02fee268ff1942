"""The ExecuTorch speed passes: each is numerically equivalent (forward and gradients).

Small shapes throughout. The ops-level tests check the im2col formulation against PyTorch's own
convolution; the pass tests run the joint program before and after each pass (in PyTorch, and
once in the ExecuTorch runtime) and compare loss, logits and every gradient.
"""
from __future__ import annotations

import collections

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.export import export
from torch.export.experimental import _export_forward_backward

from models.registry import ModelArgs, build_model
from pipeline.export.passes import (
    AddmmAsMmAdd,
    ConvToMatmul,
    DedupeSubexpressions,
    EvalConvToMatmul,
    MaxPoolAsSelect,
    ReluBackwardAsMul,
    TransposeCancel,
)
from pipeline.export.passes.conv_im2col_ops import (
    _batch_in_columns,
    _col2im,
    _out_hw,
    conv2d_forward,
    conv2d_input_grad,
    conv2d_weight_grad,
)

TOL = 1e-5


class WithLoss(nn.Module):
    """Loss first, then logits: the joint-program contract."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x, y):
        logits = self.model(x)
        return F.cross_entropy(logits, y), logits.detach()


def joint(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> torch.export.ExportedProgram:
    return _export_forward_backward(export(WithLoss(model), (x, y), strict=False), joint_loss_index=0)


def ops(ep: torch.export.ExportedProgram) -> collections.Counter:
    return collections.Counter(str(n.target) for n in ep.graph.nodes if n.op == "call_function")


def run(ep: torch.export.ExportedProgram, x, y) -> list[torch.Tensor]:
    """All outputs of the joint program (loss, logits, gradients) run in PyTorch."""
    from torch.export.graph_signature import InputKind

    user = iter((x, y))
    args = []
    for spec in ep.graph_signature.input_specs:
        if spec.kind == InputKind.USER_INPUT:
            args.append(next(user))
        elif spec.kind == InputKind.CONSTANT_TENSOR:
            args.append(ep.constants[spec.target])
        else:
            args.append(ep.state_dict[spec.target])
    return [t.detach() for t in ep.graph_module(*args)]


def assert_close(got: list[torch.Tensor], ref: list[torch.Tensor]) -> None:
    assert len(got) == len(ref)
    for i, (a, b) in enumerate(zip(got, ref)):
        err = float((a - b).abs().max()) / max(float(b.abs().max()), 1e-12)
        assert err < TOL, (i, err)


def tiny(kind: str, shape=(1, 8, 8), width: int = 4, seed: int = 0):
    torch.manual_seed(seed)
    model = build_model(kind, ModelArgs(shape, 5, width=width, hidden=(8, 8)))
    return model, torch.randn(4, *shape), torch.randint(0, 5, (4,))


@pytest.mark.parametrize("channels,size", [
    ((4, 6), (9, 7)),     # many pixels, few channels: one bmm against each sample's columns
    ((16, 24), (4, 3)),   # few pixels, many channels: one mm against the batch's columns
])
@pytest.mark.parametrize("k,stride,padding,dilation,bias", [
    (3, 1, 1, 1, False), (3, 2, 1, 1, True), (1, 2, 0, 1, False), (1, 1, 0, 1, True),
    (3, 1, 0, 1, False), (3, 1, 2, 2, False), (5, 2, 2, 1, True), (3, 3, 1, 1, False),
])
def test_im2col_ops_match_torch_convolution(k, stride, padding, dilation, bias, channels, size):
    torch.manual_seed(k * 10 + stride)
    (c, o), (h, w_) = channels, size
    x = torch.randn(3, c, h, w_, requires_grad=True)
    w = torch.randn(o, c, k, k, requires_grad=True)
    b = torch.randn(o, requires_grad=True) if bias else None
    s, p, d = (stride, stride), (padding, padding), (dilation, dilation)
    ref = F.conv2d(x, w, b, s, p, d)
    out = conv2d_forward(x, w, b, s, p, d)
    assert out.shape == ref.shape
    assert torch.allclose(out, ref, atol=1e-5, rtol=1e-5)
    g = torch.randn_like(ref)
    gx, gw = torch.autograd.grad(ref, (x, w), g)
    assert torch.allclose(conv2d_input_grad(g, x.shape, w, s, p, d), gx, atol=1e-5, rtol=1e-5)
    assert torch.allclose(conv2d_weight_grad(g, x, w.shape, s, p, d), gw, atol=1e-5, rtol=1e-5)


def _scatter_tap_by_tap(gcols, in_shape, kh, kw, ho, wo, stride, padding, dilation):
    """col2im as its definition: each tap's piece added onto the zeroed padded input, taps in order."""
    n, c, h, w = in_shape
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    acc = torch.zeros(n, c, h + 2 * ph, w + 2 * pw)
    pieces = gcols.view(n, c, kh * kw, ho, wo)
    for t in range(kh * kw):
        i, j = divmod(t, kw)
        acc[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw] += pieces[:, :, t]
    return acc[:, :, ph:ph + h, pw:pw + w]


_COL2IM_CASES = [(size, *case) for size in [(7, 7), (8, 6), (1, 9), (5, 4)] for case in [
    ((3, 3), (2, 2), (1, 1), (1, 1)), ((1, 1), (2, 2), (0, 0), (1, 1)), ((2, 3), (3, 2), (2, 1), (1, 1)),
    ((3, 3), (1, 2), (1, 0), (2, 1)), ((3, 3), (1, 1), (2, 2), (1, 1)),
] if min(_out_hw(*size, *case[0], *case[1:])) > 0]


@pytest.mark.parametrize("size,k,stride,padding,dilation", _COL2IM_CASES)
def test_col2im_by_phase_is_the_tap_by_tap_scatter_bit_for_bit(size, k, stride, padding, dilation):
    """Same sum, same order per element, signed zeros included (the native and Python runners agree
    either way; this keeps the program's arithmetic what the docstring says)."""
    (h, w), (kh, kw) = size, k
    ho, wo = _out_hw(h, w, kh, kw, stride, padding, dilation)
    torch.manual_seed(h * 31 + kh)
    g = torch.randn(2, 3 * kh * kw, ho * wo)
    g[g.abs() < 0.3] = -0.0
    want = _scatter_tap_by_tap(g, (2, 3, h, w), kh, kw, ho, wo, stride, padding, dilation)
    got = _col2im(g, (2, 3, h, w), kh, kw, ho, wo, stride, padding, dilation)
    assert got.shape == want.shape
    assert torch.equal(got, want) and torch.equal(torch.signbit(got), torch.signbit(want))


def test_the_batch_goes_into_the_columns_only_where_the_weight_expand_is_the_bigger_copy():
    assert not _batch_in_columns(180, 1024)    # resnet18_reduced's first stage: 1024 pixels, 180-long columns
    assert _batch_in_columns(1440, 16)         # its last stage: 16 pixels, 1440-long columns


@pytest.mark.parametrize("kind,shape", [("small_cnn", (1, 8, 8)), ("resnet18_reduced", (3, 8, 8)),
                                        ("cnn1d", (3, 16))])
def test_conv_pass_removes_convolutions_and_keeps_outputs(kind, shape):
    model, x, y = tiny(kind, shape)
    ep = joint(model, x, y)
    before = run(ep, x, y)
    assert ops(ep)["aten.convolution_backward.default"] > 0
    result = ConvToMatmul()(ep)
    assert result.modified and "rewritten" in result.detail
    after = ops(result.graph)
    assert after["aten.convolution.default"] == 0 and after["aten.convolution_backward.default"] == 0
    assert after["aten.bmm.default"] > 0
    assert_close(run(result.graph, x, y), before)


@pytest.mark.parametrize("kind,shape", [("small_cnn", (1, 8, 8)), ("resnet18_reduced", (3, 8, 8)),
                                        ("cnn1d", (3, 16))])
def test_eval_conv_pass_removes_the_eval_programs_convolutions_and_keeps_its_logits(kind, shape):
    """The forward-only program (decomposed, as the exporter hands it over) gets the same im2col + bmm rewrite."""
    from torch._decomp import core_aten_decompositions

    model, x, _ = tiny(kind, shape)
    model.eval()
    ep = export(model, (x,), strict=False).run_decompositions(core_aten_decompositions())
    before = ep.module()(x).detach()
    result = EvalConvToMatmul()(ep)
    assert result.modified and "rewritten" in result.detail and result.graph.graph_signature.backward_signature is None
    after = ops(result.graph)
    assert after["aten.convolution.default"] == 0 and after["aten.bmm.default"] > 0
    assert_close([result.graph.module()(x).detach()], [before])


def test_conv_pass_leaves_depthwise_convolutions_and_says_so():
    model, x, y = tiny("mobilenet", (3, 8, 8))
    ep = joint(model, x, y)
    before = run(ep, x, y)
    result = ConvToMatmul()(ep)
    assert result.modified and "left on portable kernels" in result.detail
    assert ops(result.graph)["aten.convolution.default"] == 4  # the four depthwise 3x3 convs
    assert_close(run(result.graph, x, y), before)


def test_passes_report_unmodified_graphs():
    model, x, y = tiny("mlp")
    ep = joint(nn.Sequential(nn.Flatten(), nn.Linear(64, 5)), x, y)
    for p in (ConvToMatmul(), ReluBackwardAsMul()):
        assert not p(ep).modified, p.name
    no_bias = joint(nn.Sequential(nn.Flatten(), nn.Linear(64, 5, bias=False)), x, y)
    assert not AddmmAsMmAdd()(no_bias).modified
    cancelled = TransposeCancel()(no_bias).graph
    assert not TransposeCancel()(cancelled).modified
    deduped = DedupeSubexpressions()(ep).graph
    assert not DedupeSubexpressions()(deduped).modified  # a second run finds nothing left to merge


def test_relu_backward_pass_replaces_where_with_a_mask_multiply():
    model, x, y = tiny("mlp")
    ep = joint(model, x, y)
    before = run(ep, x, y)
    wheres, relus = ops(ep)["aten.where.self"], ops(ep)["aten.relu.default"]
    result = ReluBackwardAsMul()(ep)
    assert result.modified and result.detail.startswith("2 relu")
    after = ops(result.graph)
    assert after["aten.where.self"] == wheres - 2 and after["aten.le.Scalar"] == 0
    # the masks are signs of the forward's ReLU outputs: no ReLU is computed again
    assert after["aten.relu.default"] == relus and after["aten.sign.default"] == 2
    # exact: the mask is exactly 0/1
    for a, b in zip(run(result.graph, x, y), before):
        assert torch.equal(a, b)


def test_addmm_pass_uses_mm_and_add():
    model, x, y = tiny("mlp")
    ep = joint(model, x, y)
    before = run(ep, x, y)
    result = AddmmAsMmAdd()(ep)
    assert result.modified and ops(result.graph)["aten.addmm.default"] == 0
    assert_close(run(result.graph, x, y), before)


def test_transpose_pass_removes_permute_copies():
    model, x, y = tiny("mlp", shape=(1, 16, 16))
    ep = AddmmAsMmAdd()(joint(model, x, y)).graph
    before, permutes = run(ep, x, y), ops(ep)["aten.permute.default"]
    result = TransposeCancel()(ep)
    assert result.modified and "cancelled" in result.detail
    after = ops(result.graph)
    assert after["aten.permute.default"] + after["aten.permute_copy.default"] < permutes
    assert_close(run(result.graph, x, y), before)


@pytest.mark.parametrize("k,h", [(2, 8), (2, 7), (3, 9)])
def test_maxpool_pass_matches_pytorch_including_ties(k, h):
    """Forward values and the gradient (ties go to the first element in scan order, like PyTorch)."""

    class Pool(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.w = nn.Parameter(torch.randn(3, 1, 1))

        def forward(self, x, y):
            pooled = F.max_pool2d(x * self.w, k)
            return (pooled * y).sum(), pooled.detach()

    torch.manual_seed(k + h)
    x = torch.randn(2, 3, h, h).round()  # rounding makes ties inside windows common
    y = torch.randn(2, 3, h // k, h // k)
    ep = _export_forward_backward(export(Pool(), (x, y), strict=False), joint_loss_index=0)
    before = run(ep, x, y)
    result = MaxPoolAsSelect()(ep)
    assert result.modified
    after = ops(result.graph)
    assert after["aten.max_pool2d_with_indices.default"] == after["aten.max_pool2d_with_indices_backward.default"] == 0
    for a, b in zip(run(result.graph, x, y), before):
        assert torch.equal(a, b)


def test_maxpool_pass_declines_overlapping_pools():
    model = nn.Sequential(nn.MaxPool2d(3, stride=2), nn.Flatten(), nn.Linear(9, 5))
    x, y = torch.randn(4, 1, 8, 8), torch.randint(0, 5, (4,))
    result = MaxPoolAsSelect()(joint(model, x, y))
    assert not result.modified and "overlapping" in result.detail


def test_dedupe_merges_the_recomputed_im2col_columns():
    model, x, y = tiny("small_cnn")
    ep = ConvToMatmul()(joint(model, x, y)).graph
    before, n_before = run(ep, x, y), len(ep.graph.nodes)
    result = DedupeSubexpressions()(ep)
    assert result.modified and len(result.graph.graph.nodes) < n_before
    assert_close(run(result.graph, x, y), before)


def test_executorch_training_step_matches_eager_with_fast_passes():
    """The lowered program (passes on, both stages) computes eager's loss and gradients, with no
    convolution kernel and no copy kernel that only changes a shape."""
    from executorch.exir import to_edge
    from executorch.extension.training import _load_for_executorch_for_training_from_buffer

    from pipeline.export import PassManager, default_passes

    model, x, y = tiny("small_cnn", width=3)
    passes = PassManager(default_passes(None))
    ep = passes.run("et_joint", joint(model, x, y))
    names = {r.name for r in passes.records if r.modified}
    assert {"maxpool_select", "conv_im2col", "relu_backward_mask", "addmm_as_mm", "transpose_cancel",
            "dedupe_subexpressions"} <= names
    program = passes.run("et_edge", to_edge(ep)).to_executorch()
    assert "copies_as_views" in {r.name for r in passes.records if r.modified}
    kernels = {op.name for op in program.executorch_program.execution_plan[0].operators}
    assert not any("convolution" in k for k in kernels), kernels
    # im2col and the pooling taps are one strided copy each; shape-only copies are memory aliases
    assert "aten::as_strided_copy" in kernels and "aten::constant_pad_nd" in kernels, kernels
    assert not kernels & {"aten::slice_copy", "aten::alias_copy", "aten::unsqueeze_copy", "aten::squeeze_copy"}, kernels
    buffer = program.buffer  # the module does not copy the buffer: keep it alive
    module = _load_for_executorch_for_training_from_buffer(buffer)
    loss, logits = module.forward_backward("forward", (x, y))
    net = WithLoss(model)
    ref_loss, ref_logits = net(x, y)
    ref_loss.backward()
    assert abs(float(loss) - float(ref_loss)) < TOL * max(1.0, abs(float(ref_loss)))
    assert torch.allclose(logits, ref_logits, atol=1e-5)
    grads = module.named_gradients()
    params = dict(net.named_parameters())
    assert set(grads) == set(params)
    for name, g in grads.items():
        ref = params[name].grad
        assert float((g - ref).abs().max()) <= TOL * max(float(ref.abs().max()), 1e-6), name
