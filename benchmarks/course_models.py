"""The course's models, written once for either library (``lib`` is autograd or torch): the
benchmarks time them and tests/autograd/test_models_vs_torch.py proves them equal to PyTorch."""


def digits_cnn(lib, channels=(16, 32)):
    """Conv, BatchNorm, ReLU, MaxPool, Conv, ReLU, global average, Linear: 8x8 digits to 10."""
    nn = lib.nn
    first, second = channels
    return nn.Sequential(
        nn.Conv2d(1, first, 3, padding=1, bias=False), nn.BatchNorm2d(first), nn.ReLU(),
        nn.MaxPool2d(2), nn.Conv2d(first, second, 3, padding=1), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(second, 10))


def char_transformer(lib, vocab, block, width, heads):
    """One pre-norm block of causal self-attention and a GELU MLP, with residuals."""
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.pos = nn.Embedding(block, width)
            self.ln1 = nn.LayerNorm(width)
            self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
            self.ln2 = nn.LayerNorm(width)
            self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                     nn.Linear(4 * width, width))
            self.ln_f = nn.LayerNorm(width)
            self.head = nn.Linear(width, vocab)
            self.register_buffer("causal", lib.ones(block, block).triu(1) == 1,
                                 persistent=False)

        def forward(self, idx):
            t = idx.shape[1]
            x = self.tok(idx) + self.pos.weight[:t]
            h = self.ln1(x)
            x = x + self.attn(h, h, h, attn_mask=self.causal[:t, :t], need_weights=False)[0]
            x = x + self.mlp(self.ln2(x))
            return self.head(self.ln_f(x))

    return Block()


def char_lstm(lib, vocab, width, hidden, layers=2):
    """A character-level language model: Embedding, a ``layers``-deep LSTM (batch first), and a
    Linear head from each step's hidden state to the next character's logits."""
    nn = lib.nn

    class LanguageModel(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.lstm = nn.LSTM(width, hidden, num_layers=layers, batch_first=True)
            self.head = nn.Linear(hidden, vocab)

        def forward(self, idx):
            return self.head(self.lstm(self.tok(idx))[0])

    return LanguageModel()


def small_unet(lib, channels=8):
    """A convolutional autoencoder shaped like a U-Net: Conv2d, GroupNorm and SiLU at full size,
    max-pool down, a ConvTranspose2d and a bilinear interpolate back up, the full-size features
    joined back in (a skip connection), and a 1x1 convolution to one output channel."""
    nn, F = lib.nn, lib.nn.functional

    class UNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.enc = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1),
                                     nn.GroupNorm(2, channels), nn.SiLU())
            self.mid = nn.Sequential(nn.Conv2d(channels, 2 * channels, 3, padding=1),
                                     nn.GroupNorm(4, 2 * channels), nn.SiLU())
            self.up = nn.ConvTranspose2d(2 * channels, channels, 2, stride=2)
            self.out = nn.Conv2d(2 * channels, 1, 1)

        def forward(self, x):
            skip = self.enc(x)
            deep = self.mid(F.max_pool2d(skip, 2))
            up = self.up(deep) + F.interpolate(deep[:, :channels], scale_factor=2,
                                               mode="bilinear")
            return self.out(lib.cat([up, skip], 1))

    return UNet()


def token_tagger(lib, vocab, classes, width, heads, layers=2, norm_first=False):
    """Token classification: Embedding plus learned positions, a ``layers``-deep
    TransformerEncoder (batch first, GELU) that ignores padded positions, and a Linear head
    giving each token's class logits."""
    nn = lib.nn

    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.tok = nn.Embedding(vocab, width)
            self.pos = nn.Embedding(64, width)
            layer = nn.TransformerEncoderLayer(width, heads, 2 * width, dropout=0.0,
                                               activation="gelu", batch_first=True,
                                               norm_first=norm_first)
            self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
            self.head = nn.Linear(width, classes)

        def forward(self, idx, padding):
            x = self.tok(idx) + self.pos.weight[:idx.shape[1]]
            return self.head(self.encoder(x, src_key_padding_mask=padding))

    return Tagger()
