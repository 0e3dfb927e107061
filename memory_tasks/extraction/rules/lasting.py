"""A lasting fact no rule reads: the last resort of the rules engine (issue 13.1).

Held-out bursts showed that most facts the rules miss are read by no rule at all ("I keep six hens in my
backyard", 「我每个月要出两次差」): no table of patterns names every hobby, appliance or arrangement a person
mentions. A sentence of the user's about themselves that no rule read, that says something lasting (how often, an
amount a day or a month, a hobby, what they keep, use or live next to) and nothing of the moment (today, a feeling, a
plan, a question, a request), is kept in the user's own words under a `said-…` key of its wording. Its paraphrases
then meet in the write model's similarity dedup, which decides as for any other memory; its key never names a slot
a rule fills, so it cannot overwrite one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_tasks.extraction.candidates import WORDING_FACT_PREFIX, Candidate
from memory_tasks.extraction.rules.clauses import SURGERY_AFTER_HAD, SURGERY_HAD_EN, SURGERY_HAD_ZH, Clause
from memory_tasks.extraction.rules.content import statement
from memory_tasks.extraction.rules.english import pronouns_in_the_third_person
from memory_tasks.extraction.rules.keys import fact_key
from memory_tasks.extraction.rules.lexicon import lexicon_entries, lexicon_mentions
from memory_tasks.text import EN_CHANGED, SAYS_A_CHANGE, ZH_CHANGED_TO

# Below the rules' own confidence (`clauses.CONFIDENT`): no pattern vouches for what the sentence is about.
CONFIDENCE = 0.8
_WEEKDAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
_COUNT_EN = r"(?:\d+|a couple of|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a dozen)"
# A value said changed, in the past: "I moved my notes into Notion", "I've raised my protein goal to 160 grams".
_CHANGED_TO_EN = rf"(?:{EN_CHANGED})"
# A surgery had is a lasting fact of the body, said in the past (`clauses.SURGERY_HAD_EN`, `SURGERY_HAD_ZH`).
_SURGERY_HAD = {"en": re.compile(SURGERY_HAD_EN, re.IGNORECASE), "zh": re.compile(SURGERY_HAD_ZH)}
# The lexicon's "surgery" names the kind of the event, not what it was on: it leaves "gastric sleeve surgery" to this
# module (no rule keys a surgery by its word).
_SURGERY_WORD = re.compile(r"\bsurgery\b|手术", re.IGNORECASE)
# A sentence opening with "I" and a verb in the simple present says what the user does as a rule ("I type on a
# mechanical keyboard", "I give 10% of my income to my church"); not one of these: a verb of the mind or of the moment, a
# modal, a verb in the past (irregular ones by name; "-ed" ones are left out by the pattern) or an adverb; nor a verb
# of liking, living or working, which the rules read ("I practice law" kept in words stood beside "Occupation:
# lawyer", "I live in the Pacific time zone" beside "Time zone: Pacific", "I prefer bullet-point answers" beside the
# reply format).
_NO_HABIT_VERB_EN = (
    "also|still|only|am|was|have|had|do|did|can|could|should|must|may|might|really|just|totally|definitely|know|think"
    "|prefer|enjoy|adore|dislike|live|work|practice|practise"
    "|feel|see|agree|like|mean|guess|understand|remember|forget|get|got|need|want|hope|wish|bet|believe|said|told|love"
    "|hate|find|plan|start|keep|never|recently|first|once|even|actually|sometimes|completely|finally|already|gotta"
    "|found|met|made|took|lost|saw|bought|heard|gave|chose|won|kept|went|came|thought|felt|knew|left|brought|sent|spent"
    "|built|caught|taught|ran|began|wrote|ate|drank|sang|swam|drove|rode|flew|fell|forgot|became|sold|paid|held|stood"
    "|sat|slept|woke|wore|broke|grew|threw|shot|fought|hung|led|meant|understood|spoke|stole|drew|fed|hid|rose|shook"
    "|stuck|swore|wept|[a-z]+n't|[a-z]+ly"
)
_PERIOD_EN = (
    r"(?:day|morning|night|evening|week|weekend|month|year|(?:other|second|third) (?:day|week|weekend|month)"
    r"|(?:two|three|four|\d+) (?:days|weeks|months))"
)
# What makes a sentence last beyond the moment: a frequency or an amount per period, a habit's adverb, a hobby, all of
# a kind, what the user keeps by the number, a condition and where it is, a standing value changed.
_LASTING = {
    "en": re.compile(
        # How often: "every Sunday morning", "three times a week", "$12 a day", "on weekends", "two weeks on".
        rf"\b(?:every|each) (?:(?:{_WEEKDAYS}) )?{_PERIOD_EN}\b|\b(?:every|each) (?:{_WEEKDAYS})\b"
        r"|\b(?:after|before) (?:every|each) \w+|\bevery time I\b"
        r"|\b(?:daily|weekly|monthly|yearly|nightly)\b|\b(?:once|twice|\w+ times) (?:a|an|per) (?:day|week|month|year)\b"
        r"|(?<!\bfor )(?<!\bin )(?<!\bthan )(?<!\bunder )(?<!\bover )(?<!\bafter )\b(?:a|per) (?:day|week|month|year)\b"
        rf"|\b(?:on|most|at|over the) (?:weekdays|weekends|(?:{_WEEKDAYS})s)\b|^(?:weekdays|weekends|(?:{_WEEKDAYS})s),? I\b"
        rf"|\b(?:{_WEEKDAYS}) (?:mornings|afternoons|evenings|nights)\b"
        r"|\b(?:weeks?|days?) on\b"
        # A habit said with its adverb: "I usually take the train", not "that usually helps".
        r"|\bI (?:usually|normally|typically|regularly|generally|always) (?!feel|think|wonder|worry|try to remember)\w+"
        # A habit in the simple present (`_NO_HABIT_VERB_EN`), not "I tend to…"; a creature or a thing kept by its name.
        rf"|^I (?:also |still |only )?(?!(?:{_NO_HABIT_VERB_EN})\b)[a-z]+(?<!ed)\b(?! to\b)"
        r"|^I have an? (?:[\w-]+ ){1,4}(?:named|called) [A-Z]"
        # A hobby, all of a kind, what the user keeps by the number, a part of the body.
        r"|\bas a hobby\b|\bmy (?:\w+ )?hobby\b|\b(?:spare|free) time\b|\bwhere I (?:keep|do|store)\b"
        r"|\ball (?:of )?my [\w-]+(?: \w+)? (?:in|on|at|with|through|from|happens|out of|into)\b"
        # A condition by its medical name: "I have plantar fasciitis", "I was diagnosed with fibromyalgia".
        r"|\b(?:have|has|with|from) (?:\w+ )?\w+(?:itis|osis|emia|algia|pathy|syndrome|disorder|disease)\b"
        rf"|{SURGERY_HAD_EN}"
        # A standing value changed: "I've raised my protein goal to 160 grams a day".
        rf"|\b{_CHANGED_TO_EN} (?:[\w']+ ){{0,5}}?(?:to|into|up to|down to)\b"
        rf"|\bI(?: only| still| now)?(?: keep| own| raise| have|'ve got| have got)(?: about| around| only)? {_COUNT_EN}"
        r" (?!minutes?|hours?|days?|questions?|things?|ideas?|reasons?|recommendations?|suggestions?)\w+"
        r"|\bmy (?:[a-z]+ )?(?:fund|budget|rent|mortgage|salary|allowance|goal|target|limit|routine|rotation|schedule"
        r"|shifts?)\b"
        # A figure of the user's own: "My credit score is 720", "My bench press max is 185 pounds".
        r"|^my [\w -]{3,30}? is (?:now |about |around |sitting at )?\$?\d"
        # A condition where it is: "I have plantar fasciitis in my left foot", "my lower back gets stiff".
        r"|\b(?:in my|my) (?:left |right |lower |upper )?(?:foot|feet|knees?|back|shoulders?|hips?|wrists?|ankles?|neck"
        r"|elbows?|eyes?|ears?|hands?|legs?|arms?)(?:(?=[,.;]|$)| (?:has|is|hurts|aches|gets)\b)",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"每(?:天|日|晚|早|周|星期|个?礼拜|个?月|年|次|到|逢)|一(?:天|周|个?星期|个?礼拜|个?月|年)(?!前|后|多前)"
        r"|平时|平常|一般|通常|经常|常常|长期|常年|月底|月初|周末|爱好|业余|没事的时候|有空的时候|闲的时候"
        # A standing choice: 「我家冬天取暖用的是地暖」, 「我开的是一辆二手卡罗拉」.
        r"|(?:用|开|住|骑|戴|穿|喝|抽|养|租|买)的是"
        r"|定投|(?:我家|我们家|我住的(?:那栋)?楼)(?:楼下|附近|旁边|对面|门口|底下)|楼下就是"
        # How far the home is: 「我家离地铁站走路就五分钟」, 「我住的地方离地铁站很近」.
        r"|(?:我家|我们家|我住的地方)离[^，。]{1,12}?(?:很近|不远|挺近|近|远|[一二两三四五六七八九十几半\d]+(?:分钟|公里|站))"
        r"|(?:从)?我家(?:步行|走路|开车|骑车)?(?:到|去)[^，。]{1,8}(?:只要|就|大概|要)"
        r"|(?:租|养|买)了(?:个|一|两|三|四|五|六|七|八|九|十|\d)"
        # A surgery had, a standing value changed: 「我做过胆囊切除手术」, 「鱼油我现在减到每天一粒了」. Of the changes
        # (`ZH_CHANGED_TO`), only those of an amount or a tool: 「我把他调到广州了」 moved someone else.
        rf"|{SURGERY_HAD_ZH}|切除|改用|改记|改成|换成|换到|加到|减到|涨到|提到|降到"
        # A condition named: 「我有多囊卵巢综合征」.
        r"|(?:有|患有|得了|确诊了?)[^，。]{1,10}(?:综合征|综合症|病|炎|症)"
    ),
}
# What ties a sentence to the moment, or makes it no statement of the user's: a time of the day or the week, the past,
# a plan or a wish, a feeling, an opinion, a question or a request.
_OF_THE_MOMENT = {
    "en": re.compile(
        r"\?|\b(?:today|tonight|tomorrow|yesterday|right now|just now|at the moment|later|soon|ago|earlier"
        r"|this (?:morning|afternoon|evening|week|weekend|month|year|time)"
        r"|last (?:night|week|weekend|month|year|time)|next (?:week|weekend|month|year|time)"
        r"|I(?:'m| am) (?:going to|gonna|thinking|planning|hoping|trying to decide)"
        rf"|I(?:'ll| will| was| were| had(?!{SURGERY_AFTER_HAD})| went"
        r"| did| used to|'d| would| want| wanna| need| wish| hope| think| guess| feel| felt| wonder| believe| bet)"
        r"|I(?:'m| am) (?:so |really |very |a bit |kind of |pretty )?(?:tired|exhausted|bored|happy|sad|excited|stressed"
        r"|busy|swamped|sick|hungry|sleepy|worried|nervous|glad|sorry|curious|confused|annoyed|angry|upset|lost|stuck)"
        r"|can you|could you|would you|will you|please|let me|let's|remind|help me|tell me|show me|give me"
        rf"|I (?!{_CHANGED_TO_EN}\b)\w+ed\b"
        # Said to the other person, or feelings: "I'm always here for you", "it always gets me so pumped".
        r"|you|your|thanks?|proud|excited|thrilled|grateful|glad|stoked|awesome|amazing|passion\w*|dream\w*|love|hate"
        r"|miss|hopefully|appreciate|I mean|I know|again|since|lol|lmao|haha|jk|kidding|joking"
        # A thing named by a pronoun: a memory must say what it is about on its own ("I see them at least once a week").
        r"|it|them|this|that|these|those|here|there|I'm sure|I am sure|whatever|whichever|anything|something|everything"
        # Others doing it: "they always have my back", "dogs add fun to our daily life".
        r"|they|they're|their|we|we're|our|us"
        rf"|last (?:{_WEEKDAYS}))\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"[?？吗]|今天|昨天|前天|明天|后天|今晚|昨晚|今早|刚才|刚刚|待会|等会|一会儿|马上|这周|这个?周末|上周|下周|上个月"
        r"|下个月|这次|上次|下次|这两天|这几天|那天|我觉得|我感觉|感觉|我想|想要|我猜|希望|打算|准备|计划|我要去|帮我|请"
        r"|你|给我|提醒|好累|累死|开心|烦死|无聊|郁闷|难过|谢谢|感谢"
    ),
}
# "We heat our house with a wood stove": a "we" of the user's own home is the user's household, not others doing it.
_OUR_HOME = re.compile(
    r"\bour (?:house|home|roof|yard|backyard|front yard|garden|apartment|flat|place|condo|household|kitchen|basement"
    r"|garage|driveway|property|farm)\b",
    re.IGNORECASE,
)
_HOUSEHOLD_WORD = re.compile(r"\b(?:we|us|our)\b", re.IGNORECASE)
# A change said as an event, in the past or of others: "Dana transferred to another office, so now I carpool with Marcus
# instead", 「物业改排班了，我现在变成上一天休一天」, 「面点班调课了，现在改成每周一和周三晚上上」. What the user holds now is a new
# value of a fact they told: the write model finds that fact by similarity and takes the change for its new value
# (`values.says_a_change`), so the past, others and a pronoun do not rule it out; what is not the user's own still does
# (`_NOT_A_CHANGE_OF_THE_USERS`). English needs a change done and the state it left ("switched … now", "moved … instead").
_A_CHANGE_SAID = {
    "en": re.compile(
        rf"\b(?:{EN_CHANGED}|swapped|replaced|upgraded|downgraded|traded|transferred|sold|stopped|quit)\b"
        r".*\b(?:now|instead|anymore|no longer)\b"
        r"|\b(?:now|instead)\b.*\b(?:switched|moved|changed|transferred)\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(ZH_CHANGED_TO),
}
_NOT_A_CHANGE_OF_THE_USERS = {
    "en": re.compile(
        r"\?|\b(?:tomorrow|next (?:week|weekend|month|year|time)|going to|gonna|if|maybe|might|he|she|his|her|he's|she's"
        r"|I(?:'ll| will|'d| would| want| wanna| need| wish| hope| think| guess| feel| wonder)"
        r"|I(?:'m| am) (?:thinking|planning|hoping)|can you|could you|would you|please|let me|let's|remind|help me"
        r"|tell me|you|your|thanks?|lol|haha|jk|kidding|joking)\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"[?？吗]|明天|后天|下周|下个月|打算|准备|计划|想要|我想|希望|你|请|帮我|提醒|谢谢|如果|要是|可能|也许|他|她"
    ),
}
_FIRST_PERSON = {"en": re.compile(r"\b(?:I|I'm|I've|[Mm]y|[Mm]e|[Mm]ine)\b"), "zh": re.compile(r"我")}
# A word that names what a lasting sentence is about: not the user, a light verb, a time, a frequency or a number
# ("I pay $1,200 a month" names nothing). English needs two of them, Chinese one run of two characters.
_EN_NOT_A_TOPIC = (
    "i|i'm|i've|me|my|mine|myself|a|an|the|of|to|for|in|on|at|by|with|and|or|around|only|just|also|still|now"
    "|pay|pays|paying|have|has|had|having|get|gets|getting|do|does|doing|go|goes|going|take|takes|taking|make|makes"
    "|keep|keeps|spend|spends|use|uses|put|puts|try|tries|am|is|are|be|been|got|usually|normally|always|typically"
    "|day|days|week|weeks|month|months|year|years|time|times|morning|mornings|night|nights|evening|evenings|once|twice"
    "|one|two|three|four|five|six|seven|eight|nine|ten|dozen|bucks|dollars|euros|pounds|about|roughly"
    f"|every|each|daily|weekly|monthly|nightly|per|weekend|weekends|weekdays|{_WEEKDAYS}|mondays|tuesdays|wednesdays"
    "|thursdays|fridays|saturdays|sundays|free|spare|hobby|hobbies|after|before|when|where|they|them|their"
)
_TOPIC_WORD = {
    "en": re.compile(rf"\b(?!(?:{_EN_NOT_A_TOPIC})\b)[a-z][a-z'-]{{2,}}", re.IGNORECASE),
    "zh": re.compile(
        r"(?:(?![我的了都要会在是就得把给交花付有每天月周年次个块元钱零一二两三四五六七八九十百千万])[\u4e00-\u9fff]){2}"
    ),
}
_TOPIC_WORDS = {"en": 2, "zh": 1}
# A condition by its medical name is a topic in one word: "I have scoliosis".
_CONDITION_NAMED = re.compile(
    r"\b(?!(?:diagnosis|prognosis|hypnosis|osmosis)\b)[a-z]{3,}(?:itis|osis|iasis|emia|algia|pathy|plegia)\b",
    re.IGNORECASE,
)
_EN_WORD = re.compile(r"[a-z]{3,}")


def _names_a_known_item(text: str, lang: str) -> bool:
    """True when `text` names an item of the LEXICON, an English verb also by its -ing form ("knit", "rows", "swim")."""
    if lexicon_entries(text):
        return True
    if lang != "en":
        return False
    return any(_ing_forms_known(word) for word in _EN_WORD.findall(text.casefold()))


def _ing_forms_known(word: str) -> list[tuple[str, str]]:
    """The LEXICON items an English verb names by its -ing form: "sings" -> singing, "rows" -> rowing, "swim"."""
    stem = word[:-1] if word.endswith("s") and not word.endswith("ss") else word
    return [
        entry for form in (f"{stem}ing", f"{stem[:-1]}ing", f"{stem}{stem[-1]}ing") for entry in lexicon_entries(form)
    ]


# The lexicon's kinds of a thing the user does (`keys.preference_key`), not exercise in general (运动, "exercise").
_ACTIVITY_CATEGORIES = frozenset({"sport", "music", "habit"})
_ACTIVITY_IN_GENERAL = frozenset({"exercise"})
# The verb of a habit in the simple present: "I sing in a community choir…", "I row with a club…"; not one with a
# thing done (an article or an owner after it): "I run a D&D campaign" is no running.
_EN_HABIT_VERB = re.compile(
    r"^I (?:also |still |only )?(?P<verb>[a-z]+)\b(?P<done> (?:a|an|the|my|our|his|her|their|some|this|that)\b)?"
)


# How far into an English sentence the activity it is about is named: "Baking sourdough is my weekend routine", "I go
# rock climbing a lot"; not "Every time I finish working out, I down a protein shake".
_EN_TOPIC_WITHIN_WORDS = 4


def _said_first(text: str, said: str, lang: str) -> bool:
    """True when `said` opens `text` closely enough to be what it is about (English: within its first words)."""
    if lang != "en":
        return True
    return len(text.casefold()[: text.casefold().find(said)].split()) < _EN_TOPIC_WITHIN_WORDS


def _activity_key(text: str, lang: str) -> str | None:
    """The key the rules give the one activity `text` names (「我练拳击，一个礼拜两次」 -> sport-boxing, "I sing in a community
    choir every Thursday night" -> habit-singing, by its verb), or None when it names none, another kind of item, or
    more than one."""
    known = [(slug, category) for slug, category, said in lexicon_mentions(text) if _said_first(text, said, lang)]
    verb = _EN_HABIT_VERB.match(text) if lang == "en" else None
    if verb is not None and verb["done"]:
        known = [entry for entry in known if entry not in lexicon_entries(verb["verb"])]
    elif verb is not None:
        known += [entry for entry in _ing_forms_known(verb["verb"]) if entry not in known]
    if len(known) != 1:
        return None
    slug, category = known[0]
    return f"{category}-{slug}" if category in _ACTIVITY_CATEGORIES and slug not in _ACTIVITY_IN_GENERAL else None


# A job or a diet, which the rules key (`occupation`, `diet`) whatever words say it: "I design user experiences for a
# living" kept in words stood beside "Occupation: UX designer", "I eat a plant-based vegan diet" beside "Is vegan".
_A_JOB_OR_A_DIET = re.compile(
    r"\bfor a living\b|\b(?:vegan|vegetarian|pescatarian|keto|kosher|halal|plant-based|gluten-free)\b", re.IGNORECASE
)


# A hobby is what the user likes doing: a preference, not a fact.
_HOBBY = re.compile(
    r"\bhobby\b|\bfor fun\b|\b(?:spare|free) time\b|爱好|业余|没事的时候|有空的时候|闲的时候", re.IGNORECASE
)


def _a_change_of_the_users(text: str, lang: str) -> bool:
    """True when `text` says a value of the user's changed (`_A_CHANGE_SAID`), of nothing planned, wished, asked or said
    to the other person (`_NOT_A_CHANGE_OF_THE_USERS`), in English naming the user (a Chinese sentence often names
    no one: 「面点班调课了，现在改成每周一和周三晚上上」)."""
    # The write model must read it as a change too (`SAYS_A_CHANGE`), or it would confirm the fact it changes.
    if not (SAYS_A_CHANGE.search(text) and _A_CHANGE_SAID[lang].search(text)):
        return False
    if _NOT_A_CHANGE_OF_THE_USERS[lang].search(text):
        return False
    return lang == "zh" or _FIRST_PERSON[lang].search(text) is not None


def lasting_fact(sentence: Sequence[Clause]) -> Candidate | None:
    """The fact the clauses of one sentence state, when no rule read any of them and together they say something
    lasting of the user themselves (`_LASTING`, nothing `_OF_THE_MOMENT`) or a change of it (`_a_change_of_the_users`);
    None otherwise."""
    if not sentence or any(
        c.subject != "self" or c.question or c.request or c.hedged or c.reported or c.forget or c.skip or c.name
        for c in sentence
    ):
        return None
    lang = sentence[0].lang
    if any(c.lang != lang for c in sentence):
        return None
    text = ("，" if lang == "zh" else ", ").join(c.text for c in sentence)
    # Read as the user's own when it is about the user's home ("We heat our house…" as "I heat I house…").
    own = _HOUSEHOLD_WORD.sub("I", text) if lang == "en" and _OUR_HOME.search(text) else text
    lasting = _FIRST_PERSON[lang].search(own) and _LASTING[lang].search(own) and not _OF_THE_MOMENT[lang].search(own)
    if not (lasting or _a_change_of_the_users(own, lang)):
        return None
    if len(_TOPIC_WORD[lang].findall(text)) < _TOPIC_WORDS[lang] and not _CONDITION_NAMED.search(text):
        # "I pay $1,200 a month", 「我每个月交三百」: how often or how much, of nothing named; "On Fridays I'm remote":
        # one word, too little to tell from a memory the rules keep of it ("Works from home on Fridays").
        return None
    # The home it is about ("our house") and a surgery's "surgery" are no item the rules would key.
    named = _OUR_HOME.sub(" ", _SURGERY_WORD.sub(" ", text) if _SURGERY_HAD[lang].search(text) else text)
    if _A_JOB_OR_A_DIET.search(text):
        return None
    key, memory_type = WORDING_FACT_PREFIX + fact_key(text), "preference" if _HOBBY.search(text) else "fact"
    if _names_a_known_item(named, lang):
        # "I knit in my free time", "I walk my dog every morning": the rules key what the lexicon knows. Kept in words
        # here it would stand beside the memory they keep of it ("Loves knitting"), where similarity cannot tell; one
        # activity no rule read ("I sing in a community choir every Thursday night") is kept under the rules' key.
        activity = _activity_key(named, lang)
        if activity is None:
            return None
        key, memory_type = activity, "preference"
    content = statement(text, lang)
    if lang == "en":
        # "Every other week I go in for my allergy shots": a sentence not opening with "I" keeps it after `statement`.
        content = pronouns_in_the_third_person(content)
    return Candidate(
        op="upsert",
        memory_type=memory_type,
        key=key,
        content=content[:1000],
        confidence=CONFIDENCE,
        reason="rules: a lasting fact no rule reads, in the user's words",
    )
