import type { ItemMeasure } from "@sextant/core"
import type { CommandKind, RoleHint } from "../Command.ts"

/**
 * The shape of one language's data for the rule grammar: the words it reads, the sentence templates
 * it matches and the messages it answers with. `en.ts` and `zh.ts` hold the data; the grammar's code
 * (tokenizer, clause splitting, slot filling, grounding) reads only these tables.
 */

/** What a verb phrase asks for. Several verbs become one command kind ("switch to" is a click on a tab). */
export type Verb =
  | "navigate"
  | "open"
  | "login"
  | "search"
  | "type"
  | "set"
  | "click"
  | "select"
  | "check"
  | "uncheck"
  | "expand"
  | "collapse"
  | "hover"
  | "close"
  | "submit"
  | "press"
  | "scroll"
  | "back"
  | "nextPage"
  | "previousPage"
  | "extract"
  | "switch"
  | "ensure"
  | "focus"
  | "drag"
  | "selectText"
  | "copy"
  | "paste"
  | "apply"
  | "signUp"
  /** Choose an item of a list ("book", "go for", "预订"); read only with an `item` slot. */
  | "book"
  /** Put an item of a list in the cart ("add", "加入购物车"); read only with an `item` slot. */
  | "add"

/**
 * The types a template's slot can have. A slot is named `{name}` or `{name:type}`; with no type, the
 * name is looked up in `SLOT_TYPES`.
 * - `target`: an element named in words (`the Save button`, `第二个链接`), read by the target reader;
 * - `container`: an element that holds the target (`the dialog`, `对话框`);
 * - `value`: a literal to type or choose, written as typed (quoted or plain);
 * - `reference`: words pointing back at something already named (`it`, `它`);
 * - `ordinal`: a position (`first`, `第二个`);
 * - `quantity`: a number of times or pages (`3`, `three`, `三`);
 * - `number`: one number written in digits, kept as written (`25`, a value for a slider);
 * - `quoted`: one quoted literal, taken as written; `control`: an element named with its kind (`the search box`);
 * - `key`: a key name or a chord (`Enter`, `回车`, `Ctrl+K`); `chord`: a chord only (`Control+Shift+p`);
 * - `state`: the state a box is to end in, with its links and negations (`are checked`, `is not
 *   selected`, `没有被勾选`): `"check"` or `"uncheck"`, so a slot `{kind:state}` gives the command's kind;
 * - `targets`: elements named in a list (`A and B`, `A、B 和 C`), one target each;
 * - `boxes`: two or more short names in a list (`Music, Sports and Cooking`); a name of more than a few
 *   words is one label, not a list (`I agree to the terms and conditions`);
 * - `place`: an element said before a Chinese verb, without its place words (`在 Plan 下拉框里` → `Plan 下拉框`);
 * - `action`: the words of the clause's verb: its first word when it says more than a plain click
 *   (`reject`, `accept`, `turn` of `turn on`), nothing for a plain one (`click`, `tap`, `点击`);
 * - `path`: a menu path said as a list (`File、Export、PDF`): a menu item with its path;
 * - `url`: one web address (`https://example.com`);
 * - `date`: a calendar day (`June 14, 2024`, `2024年5月20日`), written as a date input holds it (`2024-06-14`);
 * - `item`: one item of a list said by its position or a quantity (`the second one`, `the cheapest
 *   flight`, `倒数第二个`, `最便宜的商品`): an `ItemPhrase`, read with the language's `items` data;
 * - `choice`: the options of a select and the target they name (`{ options, target }`): quoted literals,
 *   else the names of a list (`Red, Green and Blue`); `option`: one option named by all its words
 *   (`Black and White`), unless it holds a comma. Used as `{*:choice}`: a slot named `*` gives the
 *   command the fields of its value;
 * - `namedItem`: an `item`, or else one item said by its own words (`the scented candle`): an
 *   `ItemPhrase` with `name` (its article dropped), matched against the text of the list's items;
 * - `owner`: a target said as whose a thing is (`Anna's`, `Dev team's`): the target without its `'s`.
 */
export type SlotType =
  | "target"
  | "container"
  | "value"
  | "reference"
  | "ordinal"
  | "quantity"
  | "number"
  | "key"
  | "chord"
  | "quoted"
  | "control"
  | "state"
  | "targets"
  | "boxes"
  | "place"
  | "date"
  | "url"
  | "action"
  | "path"
  | "choice"
  | "option"
  | "item"
  | "namedItem"
  | "owner"

/**
 * A sentence template, written the way Home Assistant writes intent sentences:
 * - words must be there (`scroll`), compared lower-cased;
 * - `(a|b c)` is one of the alternatives; `[the]` is optional;
 * - `<click>` is any phrase of that verb in the language's `verbs`, the longest that fits; `<click:verb>`
 *   also puts its words, read as an `action`, into the field `verb`;
 * - `{target}` or `{field:target}` is a named slot of a type (a run of one or more tokens, the longest
 *   first); a slot named `{_…}` is read (it must fill) but carries nothing, and takes the fewest tokens,
 *   as does a slot right before another slot (`{target:targets} {kind:state}`: the second takes the rest).
 *
 * The command has `kind`, the fields of `fixed` and one field per slot named after the slot. With
 * `each`, the slot of that name holds a list and the sentence reads to one command per item.
 * `examples` are sentences with the fields they must read to (one set of fields per command with
 * `each`): a generated test runs each one.
 */
export interface Template {
  readonly kind: CommandKind
  /** The verb whose clauses it reads, when its sentences name none with `<verb>` ("print the page"). */
  readonly verb?: Verb
  readonly sentences: ReadonlyArray<string>
  readonly fixed?: Readonly<Record<string, unknown>>
  /** Fields a slot's value takes when it does not say them itself (a field named with no role is a text box). */
  readonly defaults?: Readonly<Record<string, Readonly<Record<string, unknown>>>>
  /** A slot holding a list (`targets`, `boxes`): one command per item, the item in that field. */
  readonly each?: string
  /**
   * A `quantity` slot that says how many times the command is done ("add two scented candles to the
   * cart": its item's Add to cart pressed twice): the command that many times, without that field.
   */
  readonly repeat?: string
  readonly examples: ReadonlyArray<
    readonly [string, Readonly<Record<string, unknown>> | ReadonlyArray<Readonly<Record<string, unknown>>>]
  >
}

/** The messages the grammar answers with, in the language of the instruction. */
export interface Messages {
  readonly empty: string
  readonly noAction: (text: string) => string
  readonly nothingToDo: (text: string) => string
  readonly needsWhat: (verb: string) => string
  readonly couldNotPlace: (words: ReadonlyArray<string>) => string
  /** "Extract the names of the products that are out of stock": words that choose which items of a list to read. */
  readonly choosesItems: (words: ReadonlyArray<string>) => string
  /** "keep clicking Next until …": an action repeated until something holds, which the rules do not do. */
  readonly repeatsAction: (phrase: string) => string
  readonly needsModelToRank: (words: ReadonlyArray<string>, ranking: string) => string
  readonly needsModelToWork: (work: string) => string
  readonly needsModelToRead: (phrase: string) => string
  /** A reference read on the page that nothing there answers (`owner` is empty when only the kind was said). */
  readonly referenceNotShown: (phrase: string, owner: string, kind: string) => string
  /** A reference read on the page that more than one value answers. */
  readonly referenceSeveral: (phrase: string, values: ReadonlyArray<string>) => string
  readonly needsModelToFindText: (phrase: string) => string
  readonly literalInValue: (literal: string, value: string) => string
  readonly literalNowhere: (literal: string) => string
  readonly negated: (said: string) => string
  readonly needsValue: (verb: string) => string
  /** What a verb needs, with an example: `set`, `search`, `select`, `extract`, `ensureState`, `ensureWhat`, `drag`, `signUp`. */
  readonly hints: Readonly<Record<Hint, string>>
}

/** The verbs whose missing words have a hint of their own. */
export type Hint = "set" | "search" | "select" | "extract" | "ensureState" | "ensureWhat" | "drag" | "signUp"

/** A superlative the rules read: the least or greatest value of one kind the items print, the kinds tried in order. */
export interface Quantity {
  readonly measures: ReadonlyArray<ItemMeasure>
  readonly order: "least" | "most"
}

/**
 * Picking one item of a list ("book the cheapest flight", "把第二个商品加入购物车"), read into an `item`
 * slot and grounded on the list the page shows.
 */
export interface ItemWords {
  /**
   * Superlatives read as the least or greatest value of one kind the items print (`cheapest`: the least
   * price; `latest`: the latest time of day, else the latest day). Any other superlative of `rankings`
   * stays one that needs a model.
   */
  readonly quantities: Readonly<Record<string, Quantity>>
  /** Words after a position that count it from the end (`to last`: `second to last`) or before it (`倒数`). */
  readonly fromEnd: ReadonlyArray<string>
  /**
   * What the items may be called after the position or the quantity (`one`, `flight`, `商品`, `那一班`):
   * a name for the list's items, never a condition on them (`nonstop flight` is not one of them, so a
   * condition is never dropped).
   */
  readonly nouns: ReadonlyArray<string>
  /** Words that may end the phrase and say nothing more (`on the page`, `in the list`). */
  readonly tails: ReadonlyArray<string>
  /** Words after `first` / `last` that make them the earliest / latest time (`of the day`). */
  readonly ofTheDay: ReadonlyArray<string>
  /** Names of an item's own control (their first words): to choose it (`Select`, `Book`) / to put it in the cart (`Add to cart`). */
  readonly controls: { readonly choose: ReadonlyArray<string>; readonly cart: ReadonlyArray<string> }
}

/** One language's words and templates. Lists are plain words (English phrases split on spaces). */
export interface Lexicon {
  /** Verb phrases per verb ("log in", "登录"). */
  readonly verbs: Readonly<Partial<Record<Verb, ReadonlyArray<string>>>>
  /** Verbs that only say "click": the control's name is in the target, not in the verb. */
  readonly genericClickVerbs: ReadonlyArray<string>
  /**
   * Verbs that name no control of their own, and the control they press ("use coupon X" presses Apply).
   * A clause of such a verb that does not fill what the verb needs reads as one with no action word.
   */
  readonly verbControls?: Readonly<Record<string, string>>
  /** Connectives: always end a clause / end one only before a verb. */
  /**
   * `always` ends a clause; `beforeVerb` ends one before a verb; `closing`: a control's name said as the
   * last step ("…, and save", "… and submit it"), which ends the clause before it as a verb would and is
   * read as the press of that control (never a value's last words nor a field's name).
   */
  readonly separators: {
    readonly always: ReadonlyArray<string>
    readonly beforeVerb: ReadonlyArray<string>
    readonly closing: ReadonlyArray<string>
  }
  /** Words that carry nothing ("please", "请"); `soft` ones only before a verb or a comma. */
  readonly fillers: ReadonlyArray<string>
  /**
   * Thanks said between sentences ("…, thanks", "…。谢谢"): standing alone between punctuation (or at the
   * start or end), such a phrase is no clause and no part of a value.
   */
  readonly courtesies: ReadonlyArray<string>
  /**
   * Words said to the agent at the end of a clause ("search for lantern for me", "… if you can"): no part
   * of the value before them. Only at a clause's end, after other words, and never inside quotes.
   */
  readonly asides: ReadonlyArray<string>
  /**
   * Nouns that say what a value is, said before it with its field's own words ("my phone number 030 …",
   * "the email address ann@…"): no part of the value.
   */
  readonly valueNouns: ReadonlyArray<string>
  /**
   * Words that make an unquoted value after them a description of what to type, not the text itself
   * ("type the address", "enter my email", "put the phone in …"): such a value, when it is not plainly a
   * literal, is refused as one to read from the page, unless a literal noun introduces the text after it.
   */
  readonly describers: ReadonlyArray<string>
  /**
   * Words that make a clause a condition ("click Save if the form is valid", "除非已勾选"): the rules judge no
   * condition, so an instruction that says one is refused with it (the courtesies and asides, "if you can",
   * are read before and never count).
   */
  readonly conditions: ReadonlyArray<string>
  /**
   * How many times a step is said to be done, after its target ("click Next twice", "… 3 times"): the words
   * that say a count alone, and the word after a number that makes it one.
   */
  readonly repeats: {
    readonly words: Readonly<Record<string, number>>
    readonly times: ReadonlyArray<string>
  }
  /**
   * Words that make a target several controls, or all but some ("every box except Email", "all the options
   * but Phone", "everything"): the rules act on one control a clause, so such a target is refused.
   */
  readonly quantified: {
    readonly all: ReadonlyArray<string>
    readonly everything: ReadonlyArray<string>
    readonly except: ReadonlyArray<string>
  }
  /**
   * Words that open a relative clause after a noun ("the product that costs $12", "everyone who works at
   * …"): a property of a target the rules do not judge, so a target or option said with one is refused.
   */
  readonly relatives: ReadonlyArray<string>
  /** Words that stand for a value not yet chosen ("something nice", "anything"): a value they start is a description. */
  readonly indefinites: ReadonlyArray<string>
  /** Nouns that introduce the literal said right after them ("the word hello", "the code SAVE20"). */
  readonly literalNouns: ReadonlyArray<string>
  /** Words right after a verb that only soften it ("搜一下台灯"): no part of what follows. */
  readonly softeners: ReadonlyArray<string>
  /**
   * Whom something is sent to, right after a submit verb ("send me emails once a month", "send them to
   * sam@…"): such a verb sends something to a person and submits no form, so it is no action word.
   */
  readonly recipients: ReadonlyArray<string>
  readonly softFillers: ReadonlyArray<string>
  /** Ordinal words and their positions (-1 is the last). */
  readonly ordinals: Readonly<Record<string, number>>
  /** Number words (quantities). */
  readonly numbers: Readonly<Record<string, number>>
  /** Role nouns per role ("radio button", "按钮"). */
  readonly roles: Readonly<Partial<Record<RoleHint, ReadonlyArray<string>>>>
  /** Key names and the key the driver presses. */
  readonly keys: Readonly<Record<string, string>>
  /** Words before a name that are not part of it ("the", "my"). */
  readonly articles: ReadonlyArray<string>
  /** Words that join a field and its value ("with", "into", ":"). */
  readonly pairWords: ReadonlyArray<string>
  /** Words before a control's name ("the button labelled Save", "the field next to …"). */
  readonly nameMarkers: ReadonlyArray<string>
  /**
   * Words that put an element in a container. `after`: said between the element and the container ("Save
   * in the dialog"); `bare`: those of them that take a container named with no article, by a name with a
   * capital ("Sextant under Projects", "the Sextant folder in Projects"); `before`: said between the
   * container and the element, before 的 ("对话框里的确定", "Projects 下面的 Sextant").
   */
  readonly containerWords: {
    readonly after: ReadonlyArray<string>
    readonly bare: ReadonlyArray<string>
    readonly before: ReadonlyArray<string>
  }
  /**
   * "Find the section about refunds", "Where's the contact phone number?", "找到 Shipping times 那一节":
   * `verbs` ask to bring a part of the page on screen (on a page with no search box, "find" means that);
   * `asking` are words that only say something is looked for, never what ("section", "about", "how").
   */
  readonly locate: { readonly verbs: ReadonlyArray<string>; readonly asking: ReadonlyArray<string> }
  /** Words between the boxes and their state in "make sure A is checked" ("is", "are", "已", "被"). */
  readonly stateLinks: ReadonlyArray<string>
  /** Words that turn a state round in "make sure A is not checked" ("not", "没有"). */
  readonly stateNegations: ReadonlyArray<string>
  /** Words naming a part of a page rather than a control ("footer", "页脚"), for what not to click. */
  readonly placeWords: ReadonlyArray<string>
  /** The ways a drag goes ("right", "向右"): the word and its direction. */
  readonly directions: Readonly<Record<string, "right" | "left" | "up" | "down">>
  /** Saying a value again ("type it again", "再输入一次"): the value typed before goes into the place named. */
  readonly again: ReadonlyArray<string>
  /** Negations ("don't", "不要"). */
  readonly negations: ReadonlyArray<string>
  /** States of a box ("checked", "已勾选" / "unchecked", "未勾选"). */
  readonly checked: ReadonlyArray<string>
  readonly unchecked: ReadonlyArray<string>
  /** Words of a scroll that name no element ("down", "底部"). */
  readonly scrollWords: ReadonlyArray<string>
  /** Words that name the site's search box rather than a field ("on the site"). */
  readonly searchScope: ReadonlyArray<string>
  /** Words a command reads without carrying them ("it", "onto", "times"). */
  readonly functionWords: ReadonlyArray<string>
  /**
   * Words that type a value into the field named just before them, and are no verb anywhere else
   * (写 of "简介写：喜欢爬山", "主题写“周会”"): "<field> 写 [：] <value>" is a typing, while a clause that
   * starts with one ("写邮件给李娜") names no field and so is no typing.
   */
  readonly fieldLinks: ReadonlyArray<string>
  /**
   * Words that name nothing alone (prepositions, articles, conjunctions): a target of only these is no
   * control's name ("check in", "log on"), and a goal check counts none of them as naming a control.
   */
  readonly noNameWords: ReadonlyArray<string>
  /**
   * The words of the sentences that open a message of a mail list besides its target (`email`, `邮件`,
   * `发来` of "open Anna's email", "打开 Billing 发来的邮件"): read by the grammar, never a name.
   */
  readonly messageWords: ReadonlyArray<string>
  /**
   * Verbs that name a control acting on one item of a list ("Archive the deploy notification"): when the
   * page shows no such control until an item is opened (a reading pane's Archive), the item named by
   * the other words is opened and then the control pressed. English only: Chinese verbs are read as
   * their English first.
   */
  readonly itemActions: ReadonlyArray<string>
  /** Modifier keys of a chord and the name the driver gives them. */
  readonly chord: Readonly<Record<string, string>>
  /** Words read into a value rather than carried as typed (month names, set-verbs). */
  readonly readWords: ReadonlyArray<string>
  /**
   * What a person is working on when said as theirs ("Save my application for later", "save my
   * changes"): no control's word, so a control whose whole name is said besides it is that control.
   */
  readonly workObjects: ReadonlyArray<string>
  /** Page words: the pager ("Next", "下一页"), submit, search, close, user-name and commit controls. */
  readonly pager: { readonly next: ReadonlyArray<string>; readonly previous: ReadonlyArray<string> }
  readonly submitWords: ReadonlyArray<string>
  readonly searchWords: ReadonlyArray<string>
  readonly closeWords: ReadonlyArray<string>
  /** The button of a form in steps that goes on to the next step ("Next", "下一步"): never a commit. */
  readonly stepOnWords: ReadonlyArray<string>
  readonly userWords: ReadonlyArray<string>
  readonly passwordWords: ReadonlyArray<string>
  /** Names of controls that commit something (Submit, Buy, 提交): never pressed while looking. */
  readonly commitWords: ReadonlyArray<string>
  /** Picking one item of a list by its position or a quantity. */
  readonly items: ItemWords
  /** Rankings and work the rules cannot do: superlatives, arithmetic, counting, comparison. */
  readonly rankings: ReadonlyArray<string>
  readonly work: ReadonlyArray<string>
  /** Words that describe a value to read from the page rather than being it. */
  readonly references: ReadonlyArray<string>
  /**
   * A value described by its kind rather than written: an owner (`Maria's`, `李娜的`) then one of these
   * nouns naming a kind of value (`email address`, `电话号码`) is a reference to read from the page,
   * never the value to type. `owners` are the markers that make the owner (`'s`, `的`).
   */
  readonly valueKinds: {
    readonly nouns: ReadonlyArray<string>
    readonly owners: ReadonlyArray<string>
    /** Nouns that only say "the value": the words after "of" (before 的) name its kind ("the value of Phone", "Phone 的值"). */
    readonly values: ReadonlyArray<string>
    /** Where the value is, said around it ("from the table", "表格里"): they name no row and no column. */
    readonly places: ReadonlyArray<string>
    /** Words of an owner that name no row ("the", "row", "contact", "那个", "联系人"). */
    readonly ownerFillers: ReadonlyArray<string>
    /** Words that make an owner more than one row, so the value is a computation ("all", "two", "所有"). */
    readonly several: ReadonlyArray<string>
    /**
     * The column headers, list terms and card labels a kind goes by, beside the glossary's words
     * ("order number" → Order; 单号 → Order number, Order; 状态 → Status). Kept apart from the glossary,
     * which grounding also reads for field names: "order number" must not find a field named "Order".
     */
    readonly headers: Readonly<Record<string, ReadonlyArray<string>>>
  }
  /** Counter words after a number that say what is counted, not the value ("4位", "五晚" → 4, 5). */
  readonly counters: ReadonlyArray<string>
  /**
   * Statements a person makes about themselves, entered into the page's form ("My email is …",
   * "postcode 10435", 我住在柏林): `links` join a field's words to its value ("is", ":", 是); `kinds`
   * are the field words a value of that kind goes by when no field is named ("ann@example.com" → Email).
   * The words that name a field in other words ("born" → Date of birth) are in the glossary.
   */
  readonly statements: {
    readonly links: ReadonlyArray<string>
    /**
     * Links that name the field they fill when no field's words come before them: 叫 → name
     * ("我叫王磊" fills the name field, as "My name is …" does).
     */
    readonly namingLinks: Readonly<Record<string, string>>
    /**
     * Words before a count that only say "in all" or the thing done with what is counted (一共, 要, 住, 租
     * of "一共四个大人", "住5晚"): dropped from a fact when a number follows them.
     */
    readonly beforeCount: ReadonlyArray<string>
    /** Counters that name what they count, and so the field, when nothing else does: 晚 → nights ("住5晚"). */
    readonly countedBy: Readonly<Record<string, string>>
    /**
     * Words that make the words after field words a sentence or more than one value ("I'm travelling
     * with 2 kids", "at Main St 5 in Berlin"): such a fact is refused, not typed whole.
     */
    readonly notValue: ReadonlyArray<string>
    /**
     * Words naming a field that holds one part of a longer value ("House number", "Apt", 门牌号): a value
     * of words and a number ("12 Lindenstraße") with such a field left empty may belong in two fields,
     * so the fact is refused, not typed whole into one.
     */
    readonly partFields: ReadonlyArray<string>
    /** Words that say a count of nothing before what is counted ("no pets" → 0 on the Pets counter). */
    readonly none: ReadonlyArray<string>
    /**
     * Words that join two counts in one fact ("5 guests in 2 rooms", "3 adults with 2 children"): the
     * fact is two facts, one count each.
     */
    readonly countJoins: ReadonlyArray<string>
    readonly kinds: Readonly<Record<"email" | "url" | "date" | "time" | "phone", ReadonlyArray<string>>>
  }
  /**
   * The words of a time of day ("9:30 am", "下午两点", "上午10点15分"): the halves of the day said
   * before or after the hour, the words after an hour and after its minutes, and the word for half past.
   */
  readonly clock: {
    readonly am: ReadonlyArray<string>
    readonly pm: ReadonlyArray<string>
    readonly hour: ReadonlyArray<string>
    readonly minute: ReadonlyArray<string>
    readonly half: ReadonlyArray<string>
  }
  /** Particles and other words the tokenizer cuts out of a Han run (Chinese only). */
  readonly particles: ReadonlyArray<string>
  /** Labels pages carry in English, by the words of this language ("登录" → "sign in"). */
  readonly glossary: Readonly<Record<string, ReadonlyArray<string>>>
  readonly messages: Messages
  readonly templates: ReadonlyArray<Template>
}
