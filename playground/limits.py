"""Every size and time limit of the playground, in one place.

The app serves many people from one process, and everything it reads (typed text, pasted JSON,
share links) comes from strangers. These bounds keep one request from taking the memory or the
time of everybody else. Each is checked before the work it bounds starts (sizes as text is read,
a graph's cost from its shapes: playground.budget), and each error that enforces one quotes it.
The README's "Limits" table lists them all with what a student sees (a test keeps them in step).
"""

# Expression text (playground.expr).
MAX_TEXT_CHARS = 50_000
"""Characters in one program or one typed value (the text boxes stop there too); a 500-node graph
written out is about 10,000."""
MAX_BRACKET_DEPTH = 40
"""Nesting of ( [ { in the raw text, checked before Python's parser sees it."""
MAX_EXPR_DEPTH = 100
"""Depth of one expression tree, e.g. a chain a + a + ... + a of 100 terms."""
MAX_CONST_EXPONENT = 1_000
"""Largest |p| for a literal exponent, as in x ** p."""
MAX_EQUATION_CHARS = 100
"""Characters in one einsum equation, such as 'bij,bjk->bik'."""

# Graph specs (playground.spec).
MAX_NODES = 2_000
"""Nodes in one graph, generated intermediate nodes included."""
MAX_NAME_CHARS = 64
"""Characters in one node name."""
MAX_NDIM = 8
"""Dimensions of a tensor given as a value, a shape or an axis."""
MAX_ELEMENTS = 1_000_000
"""Elements in one tensor: a literal, a generator, a shape attribute or an op's result (worked out
from the shapes before it is computed)."""
MAX_TOTAL_ELEMENTS = 4_000_000
"""Elements in all leaves of one graph together, checked as a graph is read, before any value is
made (the bound on all its tensors, MAX_GRAPH_ELEMENTS, follows when it is evaluated)."""
MAX_LITERAL_NUMBERS = 100_000
"""Numbers written out in one graph's values together (its lists and single numbers, not its
generators): about 3 MB as the session keeps them. A list is refused from its shape before its
numbers are read, and a graph as soon as its values so far pass the limit."""
MAX_OPERANDS = 256
"""Operands of one node, such as stack(a, b, ...); each is an edge of the drawing."""
MAX_EDGES = 6_000
"""Operands of all nodes of one graph together (a node that reads x twice counts twice): every
edge is drawn, and the drawing's source is sent to the browser."""

# The cost of evaluating a graph (playground.budget), worked out from shapes before any work.
MAX_GRAPH_ELEMENTS = 4_000_000
"""Elements in all of a graph's tensors together, leaves and computed ones (its gradients hold as
many again): about 64 MB for values and gradients."""
MAX_WORK = 20_000_000
"""Work units of one forward pass: about one per element an op computes, plus 1,000 per op and a
matrix product's multiply-adds / 16 (backward costs about twice as much again)."""
MAX_SECONDS = 10.0
"""Wall-clock seconds one evaluation or finite-difference check may take, whatever the estimate
said (checked between steps; the budgets above keep honest graphs far below it)."""
MAX_SEED = 2**53 - 1
"""Largest seed of a random generator: the largest whole number a browser's number box (and
JavaScript's JSON) holds exactly."""

# Documents and links (playground.spec, playground.share).
MAX_JSON_CHARS = 4_000_000
"""Characters in one JSON document (an imported file's bytes too), and bytes a share link may
decompress to."""
MAX_SHARE_CHARS = 32_000
"""Characters in one share-link string: a 2,000-node graph with short names takes about 20,000
(browsers and this app's nginx recipe accept addresses of 64 KB)."""

# Finite differences (playground.checks).
FD_MAX_ELEMENTS = 2_000
"""Input elements a graph may have for the gradient check, which perturbs each (two forward
passes each; MAX_CHECK_WORK may make it compare fewer)."""
SWEEP_MAX_ELEMENTS = 64
"""Input elements the epsilon sweep samples (evenly spaced), at each of its ten epsilons."""
MAX_CHECK_WORK = 50_000_000
"""Work units of the forward passes of one gradient check or epsilon sweep together; a check
that would need more compares fewer elements, evenly spaced, and says so."""

# Editing (playground.edits).
MAX_HISTORY = 100
"""Undo steps kept per session; an older step is forgotten, without a message."""
MAX_HISTORY_BYTES = 16 * 2**20
"""Estimated bytes of all the graphs one session's undo history keeps, the current one included
(GraphSpec.nbytes); the oldest steps are forgotten first, without a message. The largest graph
the limits allow takes about 4.3 MB, so it always fits."""

# The server (pages/ui/cached.py and the Graph page).
CACHE_BYTES = 320 * 2**20
"""Bytes of results (values, gradients, drawings, tables) one server process keeps for all its
sessions together; a single result larger than a quarter of it is computed but not kept."""
MAX_LAYOUT_NODES = 1_000
"""Shapes (records and op ovals) of a drawing the server lays out as an SVG file."""
MAX_DRAWN_SHAPES = 300
"""Shapes of a drawing the server lays out for the page itself (a fifth of a second, a few
hundred kB sent at each rerun); a bigger drawing is laid out by the student's browser."""
MAX_DRAWN_SECONDS = 1.0
"""Seconds the server's Graphviz may take to lay out the page's drawing; a drawing that takes
longer is laid out by the student's browser."""
MAX_LAYOUT_SECONDS = 5.0
"""Seconds the server's Graphviz may take to lay out one SVG file (asked for on the Graph
page)."""

# A live class (playground.classroom): everything a room keeps comes from strangers too.
ROOM_SECONDS = 12 * 3600
"""Seconds a room lives after it is opened; then it is deleted with its steps, students and
answers."""
MAX_ROOM_STEPS = 50
"""Steps in one lesson."""
MAX_ROOM_STUDENTS = 300
"""Students who may join one room."""
MAX_NICKNAME_CHARS = 24
"""Characters in a student's nickname (optional; letters, digits, spaces and - _ . ' only)."""
MAX_STEP_TITLE_CHARS = 80
"""Characters in a step's title."""
MAX_STEP_HIDDEN_ELEMENTS = 1_000
"""Elements of the numbers an exercise step hides, kept in the room as its answer key."""
JOINS_PER_ROOM_PER_MINUTE = 300
"""Joins one room accepts in a minute (the largest class arriving within one)."""
JOINS_PER_CLIENT_PER_MINUTE = 300
"""Joins from one address in a minute: the largest class behind one school router shares it."""
WRONG_CODES_PER_CLIENT_PER_HOUR = 60
"""Join codes from one address that name no room, in an hour: 32^6 codes cannot be tried."""
ROOMS_PER_CLIENT_PER_HOUR = 20
"""Rooms one address may open in an hour."""
ANSWERS_PER_STUDENT_PER_MINUTE = 30
"""Answers one student may send in a minute."""

# The server (pages/ui/admission.py): one client among many.
MAX_SESSIONS_PER_ADDRESS = 100
"""Sessions (open tabs) one address may hold at once; the next gets a page saying so. A class
behind one school router shares an address: $AUTOGRAD_PLAYGROUND_SESSIONS_PER_ADDRESS raises it."""

# Messages (playground.errors).
MAX_QUOTE_CHARS = 80
"""Characters of what a person typed that a message quotes (a name, a field, a value), the
ellipsis included; longer text is cut."""
MAX_MESSAGE_CHARS = 2_000
"""Characters of one message as a page shows it, the ellipsis included."""
