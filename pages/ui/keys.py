"""Every `st.session_state` key of the app, defined once; the tests use these names too.

Widget keys start with WIDGET ("w_"); Streamlit forgets a widget's value when its page is not
drawn, so the truth lives under plain state keys, which start with STATE ("pg_").
"""

WIDGET = "w_"
STATE = "pg_"
SHOWN = STATE + "shown_"  # + a widget's key: the value the app last showed in it

# --- plain state (pages/ui/session.py) -----------------------------------------------------------
HISTORY = STATE + "history"  # the undo History of graph specs
OPTIONS = STATE + "options"  # playground.view.Options
URL_WRITTEN = STATE + "url_written"  # the app's URL parameters as last written
NOTICES = STATE + "notices"  # messages for the top of the next page
ERRORS = STATE + "errors"  # form -> SpecError of its last refused edit
JSON_MEMO = STATE + "json_memo"  # (spec, its JSON)
PAGE_STYLE_FONT = STATE + "page_style_font"  # the Font size whose page stylesheet was last sent
SCROLL_TO = STATE + "scroll_to"  # the anchor (pages/ui/scroll.py) the next run scrolls to
SCROLL_COUNT = STATE + "scroll_count"  # how many scrolls were asked for (the anchor's nonce)
REDUCED_MOTION = STATE + "reduced_motion"  # the browser said: prefers-reduced-motion
PAINTED = STATE + "painted"  # the session has drawn a page (pages/ui/first_paint.py)
ENTRY_RERUN = STATE + "entry_rerun"  # a page file asked to rerun through the entry script
ADMITTED = STATE + "admitted"  # this session counts among its address's open ones (admission)
EXPR_DRAFT = STATE + "expr_draft"  # the expression editor's text, kept while other pages show
EXPR_FOR = STATE + "expr_for"  # JSON of the graph the editor's text describes
EDIT_TARGET = STATE + "edit_target"  # the node chosen on Build -> Edit a node
DETAIL_NODE = STATE + "detail_node"  # the node shown in detail on Gradients
EPS = STATE + "eps"  # the step of the gradient check
SVG_FOR = STATE + "svg_for"  # fingerprint of the drawing whose SVG file was asked for

# --- sidebar -------------------------------------------------------------------------------------
PRESET = WIDGET + "preset"
OUTPUT = WIDGET + "output"
NEW_GRAPH = WIDGET + "new_graph"
UNDO = WIDGET + "undo"
REDO = WIDGET + "redo"
SHOW = WIDGET + "show"
RANKDIR = WIDGET + "rankdir"
FONT = WIDGET + "font"
COMPACT = WIDGET + "compact"

# --- Build: add a node ---------------------------------------------------------------------------
ADD_KIND = WIDGET + "add_kind"
ADD_OP = WIDGET + "add_op"
ADD_OPERANDS = WIDGET + "add_operands"  # ops that take any number of operands
ADD_VALUE = WIDGET + "add_value"  # prefix of the value widgets (see value_part)
ADD_ATTR = WIDGET + "add_attr"  # prefix of the attribute widgets (see attr)
ADD_NAME = WIDGET + "add_name"
ADD_GO = WIDGET + "add_go"

# --- Build: expression ---------------------------------------------------------------------------
EXPR_FORM = WIDGET + "expr_form"
EXPR_TEXT = WIDGET + "expr_text"
EXPR_APPLY = WIDGET + "expr_apply"
EXPR_RELOAD = WIDGET + "expr_reload"

# --- Build: import JSON --------------------------------------------------------------------------
IMPORT_FORM = WIDGET + "import_form"
IMPORT_FILE = WIDGET + "import_file"
IMPORT_TEXT = WIDGET + "import_text"
IMPORT_GO = WIDGET + "import_go"

# --- Build: edit a node --------------------------------------------------------------------------
EDIT_NODE = WIDGET + "edit_node"
EDIT_NEW_NAME = WIDGET + "edit_new_name"
EDIT_RENAME = WIDGET + "edit_rename"
EDIT_SET_VALUE = WIDGET + "edit_set_value"
EDIT_OUTPUT = WIDGET + "edit_output"
EDIT_CASCADE = WIDGET + "edit_cascade"
EDIT_DELETE = WIDGET + "edit_delete"

# --- Graph: downloads ----------------------------------------------------------------------------
DOWNLOAD = WIDGET + "download_"  # + "dot", "svg", "json", "text", "pytorch"

# --- the sidebar's share link -------------------------------------------------------------------
SHARE_LINK = WIDGET + "share_link"  # pages/ui/copy_box.py's component

# --- the drawing (Build, Graph, Gradients) -------------------------------------------------------
DRAWING = WIDGET + "drawing"  # pages/ui/drawing.py's component: a click on a node, on Gradients

# --- Gradients and Gradient check ----------------------------------------------------------------
DETAIL_WIDGET = WIDGET + "detail_node"
NODE_TABLE = WIDGET + "node_table"
DETAIL_BLOCK = "node_detail"  # the container of Gradients' node detail (scrolled to on a click)
SCROLL_ANCHOR = WIDGET + "scroll_anchor"  # pages/ui/scroll.py's component
MOTION_REPORTER = WIDGET + "motion_reporter"  # pages/ui/motion.py's component
ELEMENT_TABLE = WIDGET + "element_table"  # a tensor's elements (Gradients' "Every element")
CHECK_TABLE = WIDGET + "check_table"  # Gradient check's table
TRACE_TABLE = WIDGET + "trace_table"  # Step through's evaluation trace
EPS_WIDGET = WIDGET + "eps"

# --- Train ---------------------------------------------------------------------------------------
TRAINER = STATE + "trainer"  # playground.training.Trainer: this session's network and history
TRAIN_SETTINGS = STATE + "train_settings"  # playground.training.TrainSettings
TRAIN_RUNNING = STATE + "train_running"  # True while the fragment trains on its timer
TRAIN_URL_WRITTEN = STATE + "train_url_written"  # the Train parameters as last written
TRAIN_SAMPLE = STATE + "train_sample"  # (split, index) of the point whose graph opens
TRAIN_SPEED = STATE + "train_speed"  # steps per update while running
TRAIN_INTERVAL = STATE + "train_interval"  # seconds of the update timer the page last set
TRAIN_PACE_KEY = STATE + "train_pace_key"  # this session's name in the shared Pace
TRAIN_GO_GRAPH = STATE + "train_go_graph"  # a sample's graph was opened: switch to the Graph page
TRAIN_LINK_NOTE = STATE + "train_link_note"  # the link settings ignored for this trainer
TRAIN_PICTURES = STATE + "train_pictures"  # (what they show, the pictures' tables and specs)
TRAIN_PICTURES_BLOCK = "train_pictures"  # the container of the Train page's charts (its CSS)
TRAIN_START = WIDGET + "train_start"
TRAIN_PAUSE = WIDGET + "train_pause"
TRAIN_STEP = WIDGET + "train_step"
TRAIN_RESET = WIDGET + "train_reset"
TRAIN_SPEED_WIDGET = WIDGET + "train_speed"
TRAIN_BOUNDARY = WIDGET + "train_boundary"  # the decision-boundary chart: a click picks a point
TRAIN_SAMPLE_SPLIT = WIDGET + "train_sample_split"
TRAIN_SAMPLE_INDEX = WIDGET + "train_sample_index"
TRAIN_OPEN_GRAPH = WIDGET + "train_open_graph"
TRAIN_DOWNLOAD = WIDGET + "train_download"
TRAIN_SHARE_LINK = WIDGET + "train_share_link"  # the lesson's link (pages/ui/copy_box.py)

# --- Step through and exercises ------------------------------------------------------------------
STEP_MODE = STATE + "step_mode"  # "forward", "tangent" or "reverse" (playground.steps.MODES)
STEPS = STATE + "steps"  # mode -> the step shown in that mode
STEP_PLAYING = STATE + "step_playing"  # True while Play advances a step a second
STEP_WRT = STATE + "step_wrt"  # (input, element) that forward mode moves
EXERCISE = STATE + "exercise"  # playground.exercises.Exercise, or None; travels in the link
EXERCISE_MINE = STATE + "exercise_mine"  # this tab set the exercise up (it sees the set-up)
EXERCISE_MARKS = STATE + "exercise_marks"  # node -> True/False after Check
EXERCISE_REVEALED = STATE + "exercise_revealed"  # the hidden nodes revealed so far, in order
STEP_MODE_WIDGET = WIDGET + "step_mode"
STEP_SLIDER = WIDGET + "step_slider"
STEP_BUTTON = WIDGET + "step_"  # + "first", "back", "next", "last", "play"
STEP_WRT_WIDGET = WIDGET + "step_wrt"
STEP_ELEMENT_WIDGET = WIDGET + "step_element"
TRACE_DOWNLOAD = WIDGET + "trace_download_"  # + "tex", "csv"
EXERCISE_PRESET = WIDGET + "exercise_preset"
EXERCISE_QUANTITY = WIDGET + "exercise_quantity"
EXERCISE_NODES = WIDGET + "exercise_nodes"
EXERCISE_WRT = WIDGET + "exercise_wrt"
EXERCISE_SET = WIDGET + "exercise_set"
EXERCISE_CLEAR = WIDGET + "exercise_clear"
EXERCISE_CHECK = WIDGET + "exercise_check"
EXERCISE_REVEAL = WIDGET + "exercise_reveal"
EXERCISE_REVEAL_ALL = WIDGET + "exercise_reveal_all"


def guess(exercise, name: str) -> str:
    """The text box of a student's guess for node ``name`` (never written into the URL)."""
    return f"{WIDGET}guess_{exercise.quantity}_{exercise.wrt or ''}_{name}"


def train_setting(field: str) -> str:
    """The widget of one field of TrainSettings (or of one hidden layer's size, "units_<i>")."""
    return f"{WIDGET}train_{field}"


def add_operand(arity: int, slot: int) -> str:
    """One key per arity and slot: a unary op starts from the last node, not from whatever the
    first slot of a binary op held."""
    return f"{WIDGET}add_operand_{arity}_{slot}"


def edit_value(name: str) -> str:
    """Prefix of the value widgets on Edit a node, one per node: they start from its value."""
    return f"{WIDGET}edit_value_{name}"


# --- the parts of a value widget group, and of attribute widgets, under a prefix -----------------
VALUE_PARTS = ("mode", "number", "list", "fn", "shape", "seed", "fill")


def value_part(prefix: str, part: str) -> str:
    """The widget of one part (VALUE_PARTS) of the value drawn under ``prefix``."""
    assert part in VALUE_PARTS, part
    return f"{prefix}_{part}"


def attr(prefix: str, op: str, name: str) -> str:
    """The widget of attribute ``name`` of operation ``op``, drawn under ``prefix``."""
    return f"{prefix}_{op}_{name}"


def attr_on(key: str) -> str:
    """The checkbox that says whether the optional attribute under ``key`` is set."""
    return f"{key}_on"


def count(prefix: str) -> str:
    """How many entries a row of whole numbers (a shape, an index) under ``prefix`` has."""
    return f"{prefix}_n"


def entry(prefix: str, i: int) -> str:
    """Entry ``i`` of the row of whole numbers under ``prefix``."""
    return f"{prefix}_{i}"
