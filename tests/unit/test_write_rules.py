"""Plain-function rules of the write path: turn validation, append semantics, one write model (R-SAFE-4, R-PIPE-6)."""

import re
from pathlib import Path

import pytest

from memory_tasks.memories.store import append_content
from memory_tasks.turns import TurnError, validate_turn


@pytest.mark.parametrize(
    ("user_id", "role", "text", "reason"),
    [
        (0, "user", "hello", "positive"),
        (2**31, "user", "hello", "positive"),
        (True, "user", "hello", "positive"),
        (1, "robot", "hello", "role"),
        (1, "user", "   ", "empty"),
        (1, "user", "a\x00b", "NUL"),
        (1, "user", "bad \udcff text", "UTF-8"),
        (1, "user", "x" * 40_000, "longer"),
    ],
)
def test_bad_turns_are_refused_with_the_reason(user_id, role, text, reason) -> None:
    """R-SAFE-4: unknown roles, empty, oversized, NUL and invalid UTF-8 text get a clear error."""
    with pytest.raises(TurnError, match=reason):
        validate_turn(user_id, role, text)


def test_valid_turn_is_trimmed() -> None:
    assert validate_turn(7, "user", "  我喜欢喝乌龙茶 \n") == "我喜欢喝乌龙茶"


def test_append_adds_only_new_sentences() -> None:
    """R-PIPE-6: appending what is already there changes nothing (no double append)."""
    once = append_content("喜欢喝乌龙茶", "也喜欢喝普洱茶。")
    assert once == "喜欢喝乌龙茶；也喜欢喝普洱茶。"
    assert append_content(once, "也喜欢喝普洱茶。") == once
    assert append_content(once, "也喜欢喝普洱茶") == once


def test_append_in_english_uses_a_latin_separator() -> None:
    assert append_content("Likes hiking.", "Also likes climbing.") == "Likes hiking; Also likes climbing."


def test_a_part_ending_in_a_separator_does_not_double_the_joiner() -> None:
    """R-WRITE-2 (fourteenth probe): "Son is 5；; Daughter is 3" was stored."""
    assert append_content("Has two kids", "Son is 5；Daughter is 3") == "Has two kids; Son is 5; Daughter is 3"
    assert append_content("有一个女儿", "今年四岁。叫小雨。") == "有一个女儿；今年四岁；叫小雨。"


def test_a_part_said_in_other_names_of_the_same_frame_adds_nothing() -> None:
    """R-WRITE-3 (twenty-third probe): 「老婆怀孕了；妻子怀孕了；太太现在怀孕了」 and "Husband is diabetic; Husband has
    diabetes; Husband's got diabetes" were stored, one statement said three ways (`values.frame`)."""
    assert append_content("老婆怀孕了", "太太现在怀孕了") == "老婆怀孕了"
    assert append_content("Husband is diabetic", "Husband's got diabetes") == "Husband is diabetic"
    assert append_content("哥哥住在美国", "哥现在在美国生活") == "哥哥住在美国"
    assert append_content("Daughter has a nut allergy", "Daughter is allergic to nuts") == "Daughter has a nut allergy"
    assert append_content("爸退休了", "父亲已经退休了") == "爸退休了"
    assert append_content("老婆怀孕了", "老婆是老师") == "老婆怀孕了；老婆是老师"
    assert append_content("Husband is diabetic", "Husband has asthma") == "Husband is diabetic; Husband has asthma"


@pytest.mark.parametrize(
    ("held", "said"),
    [
        ("Husband is vegetarian", "Husband doesn't eat meat"),
        ("Husband doesn't eat meat", "Husband is a vegetarian"),
        ("Son is allergic to peanuts", "Son can't have peanuts, he's allergic"),
        ("Wife is gluten-free", "Wife can't eat gluten"),
        ("Wife is gluten-free", "Wife avoids gluten"),
        ("儿子对海鲜过敏", "儿子不能吃海鲜；会过敏"),
        ("儿子不能吃海鲜；吃了会过敏", "儿子对海鲜过敏"),
        ("Has twin daughters", "Daughters are twins"),
        ("Has two kids, 5 and 8", "Kids are 5 and 8"),
        ("Has two kids, 5 and 8", "Has two children aged 5 and 8"),
        ("Partner is a teacher", "Partner teaches school"),
        ("哥在美国", "哥哥住在美国"),
        ("哥在美国", "哥现在在美国生活"),
        ("Dad has a heart condition", "Dad's got a bad heart"),
        ("女儿不吃香菜", "女儿不吃香菜的"),
        ("女儿上初二", "闺女初二了"),
    ],
)
def test_a_family_members_diet_or_allergy_said_another_way_adds_nothing(held: str, said: str) -> None:
    """R-WRITE-3, issue 13.1 (left by the twenty-third probe, session 33): each second wording was appended beside the
    first ("Husband is vegetarian; Husband doesn't eat meat")."""
    assert append_content(held, said) == held


def test_childrens_ages_said_again_without_their_count_replace_the_ages_held() -> None:
    """R-WRITE-2 (session 33): "My kids are 6 and 9 now" after "Has two kids, 5 and 8" was appended beside it, so the
    fact said both ages; other facts of the group stay."""
    assert append_content("Has two kids, 5 and 8", "Kids are 6 and 9 now") == "Kids are 6 and 9 now"
    assert append_content("Has two kids, 5 and 8; Wife is a nurse", "Kids are 6 and 9") == (
        "Kids are 6 and 9; Wife is a nurse"
    )
    assert append_content("哥在美国", "哥在美国工作") == "哥在美国；哥在美国工作"  # where he works is more


def test_another_food_a_family_member_keeps_from_is_still_appended() -> None:
    assert append_content("Wife is gluten-free", "Wife can't eat dairy") == "Wife is gluten-free; Wife can't eat dairy"
    assert append_content("Husband is vegetarian", "Husband doesn't eat fish") == (
        "Husband is vegetarian; Husband doesn't eat fish"
    )
    assert append_content("儿子对海鲜过敏", "儿子不能吃芒果；会过敏") == "儿子对海鲜过敏；儿子不能吃芒果；会过敏"
    # Having a thing is no food kept from: "doesn't have a car" is not "avoids a".
    assert append_content("Husband doesn't have a car", "Husband avoids a car") == (
        "Husband doesn't have a car; Husband avoids a car"
    )


def test_a_school_finished_replaces_the_stage_held() -> None:
    """R-WRITE-2 (twenty-third probe): 「我儿子大学毕业了」 after 「儿子在读大学」 was taken for a repeat (the new value
    lost), and "Son graduated from college" was kept beside "Son is in college"."""
    assert append_content("儿子在读大学", "儿子大学毕业了") == "儿子大学毕业了"
    assert append_content("女儿上初二", "女儿升初三了") == "女儿升初三了"  # session 33: 升 moves a stage on
    assert append_content("Son is in college", "Son graduated from college") == "Son graduated from college"
    assert append_content("妈跟我们一起住", "母亲跟我们同住") == "妈跟我们一起住"


def test_append_to_empty_content_is_the_addition() -> None:
    assert append_content("", "Plays the violin.") == "Plays the violin."


PACKAGE = Path(__file__).resolve().parents[2] / "memory_tasks"
WRITE_MODEL = "memories/store.py"
# Modules that write other columns of long_term_memories: index state and access statistics,
# never what a memory says or whether it is shown.
BOOKKEEPING = {"vectors/index.py", "vectors/audit.py", "db/claims.py", "retrieval/access.py"}


def _sources_matching(pattern: str) -> set[str]:
    regex = re.compile(pattern)
    return {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if regex.search(path.read_text(encoding="utf-8"))
    }


def test_the_revision_is_bumped_in_the_write_model_only() -> None:
    """Issue 10: the expression that bumps `revision` exists once, so no write path can keep its own."""
    assert _sources_matching(r"revision\s*(\+|=[^\n]*\+)\s*1") == {WRITE_MODEL}


def test_memory_rows_are_written_by_the_write_model_only() -> None:
    """Issue 10: a new UPDATE/INSERT of long_term_memories outside the write model fails here."""
    writers = _sources_matching(r"(update|insert)\(LongTermMemory\)")
    assert writers - BOOKKEEPING == {WRITE_MODEL}


def test_a_sentence_said_again_with_another_number_replaces_the_old_one() -> None:
    """R-WRITE-2 (fourteenth probe): "Correction: my daughter is 7, not 6" after "My daughter is 6" left
    "Daughter is 6; Daughter is 7"; a child's new age or a new count replaces the old one."""
    assert append_content("Daughter is 6", "Daughter is 7") == "Daughter is 7"
    assert (
        append_content("Has two kids; Son is 5; Daughter is 3", "Son is 6") == "Has two kids; Son is 6; Daughter is 3"
    )
    assert append_content("有一个女儿；今年四岁", "有两个女儿") == "有两个女儿；今年四岁"
    assert append_content("Son is 5; Daughter is 5", "Son is 6") == "Son is 6; Daughter is 5"
    # Two parts of that shape: which one is meant is unknown, so the sentence is added.
    assert append_content("Is 5; Is 6", "Is 7") == "Is 5; Is 6; Is 7"
    # Session 22 scenarios: 今年 / 了 / "now" place the age in time and left both ages.
    assert append_content("女儿今年5岁", "女儿6岁了") == "女儿6岁了"
    assert append_content("Has two kids; Daughter is 6", "Daughter is now 7") == "Has two kids; Daughter is now 7"
    assert append_content("Son is 5", "Son just turned 6") == "Son just turned 6"
    assert append_content("儿子5岁", "儿子满6岁了") == "儿子满6岁了"
    assert append_content("Has a cat named Luna", "Has a dog named Max") == "Has a cat named Luna; Has a dog named Max"


def test_a_childs_new_school_stage_replaces_the_old_one() -> None:
    """R-WRITE-2 (sixteenth probe): 「我女儿上幼儿园」 then 「我女儿上小学了」 left 「女儿上幼儿园；女儿上小学了」 in
    family-children; a school stage moves on as an age does. Another child's stage is added beside it."""
    assert append_content("女儿上幼儿园；儿子今年5岁", "女儿上小学了") == "女儿上小学了；儿子今年5岁"
    assert append_content("女儿读初二", "女儿上高一了") == "女儿上高一了"
    assert append_content("Son is in 5th grade", "Son started middle school") == "Son started middle school"
    assert (
        append_content("Daughter started kindergarten; Son is 7", "Daughter is in first grade now")
        == "Daughter is in first grade now; Son is 7"
    )
    assert append_content("女儿上幼儿园", "儿子上小学了") == "女儿上幼儿园；儿子上小学了"
    assert append_content("女儿在北京上大学", "女儿毕业了") == "女儿在北京上大学；女儿毕业了"


def test_a_sentence_said_again_with_the_same_values_adds_nothing() -> None:
    """R-WRITE-3 (nineteenth probe): 「我女儿今年上三年级」 then 「我女儿现在读三年级」 left 「女儿今年上三年级；女儿现在读三年级」:
    the stage verb (上 / 读) and a time word placed before it hid that the sentence says the same stage, and
    「我家女儿三年级了」 was added as a third. The same values in other words add nothing; another value still replaces."""
    assert append_content("女儿今年上三年级", "女儿现在读三年级") == "女儿今年上三年级"
    assert append_content("女儿今年上三年级；Has two kids", "我家女儿三年级了") == "女儿今年上三年级；Has two kids"
    assert append_content("Daughter is 6; Son is 3", "My daughter is 6 now") == "Daughter is 6; Son is 3"
    assert append_content("女儿今年上三年级", "女儿现在读四年级") == "女儿现在读四年级"
    assert append_content("Son is in 5th grade", "My son started 6th grade") == "My son started 6th grade"


def test_a_partners_name_said_again_replaces_the_old_one() -> None:
    """R-WRITE-2 (eighteenth probe): 「我老婆叫小红」 then 「不对，她叫小虹」 left 「老婆叫小红；老婆叫小虹」, and "My wife's
    name is Hanna, not Anna" after Anna kept both names; a partner has one name, so the new one corrects the old.
    A child's name is added (「儿子叫小亮」 may be a second son), and a partner's other facts are kept."""
    assert append_content("老婆叫小红", "老婆叫小虹") == "老婆叫小虹"
    assert append_content("老婆叫小红；是个老师", "老婆叫小虹") == "老婆叫小虹；是个老师"
    assert append_content("Wife's name is Anna", "Wife's name is Hanna.") == "Wife's name is Hanna."
    assert append_content("Husband is called Tom; Is a nurse", "Husband is called Mary Ann") == (
        "Husband is called Mary Ann; Is a nurse"
    )
    assert append_content("儿子叫小明", "儿子叫小亮") == "儿子叫小明；儿子叫小亮"
    assert append_content("老婆是老师", "老婆是四川人") == "老婆是老师；老婆是四川人"


def test_a_childs_school_stage_said_again_with_still_adds_nothing() -> None:
    """R-WRITE-3 (twenty-second probe): 「我家儿子还在幼儿园」 after 「儿子在上幼儿园」 was appended as a second statement."""
    assert append_content("儿子在上幼儿园", "儿子还在幼儿园") == "儿子在上幼儿园"
    assert append_content("儿子在上幼儿园", "儿子上小学了") == "儿子上小学了"


@pytest.mark.parametrize(
    ("existing", "addition"),
    [
        ("Son is in 3rd grade", "Son's in third grade"),
        ("Son is in 3rd grade", "Son is in the third grade"),
        ("Sister lives in Toronto", "Sister is in Toronto"),
        ("Mom lives with us", "Mom stays with us"),
    ],
)
def test_a_family_fact_said_again_in_other_words_is_not_appended(existing: str, addition: str) -> None:
    """R-WRITE-3 (twenty-fifth probe, held-out bursts): a grade in words or digits, "is in" a named place, "stays with"
    were appended as parts of the fact they restate ("Sister lives in Toronto; Sister is in Toronto")."""
    assert append_content(existing, addition) == existing


@pytest.mark.parametrize(
    ("existing", "addition"),
    [
        ("爸特别喜欢钓鱼", "爸最大的爱好就是钓鱼"),
        ("爸特别喜欢钓鱼", "老爸是个钓鱼迷"),
        ("妹妹是律师", "妹是做律师的"),
        ("妹妹是律师", "妹妹的工作是律师"),
        ("爸妈住在河南老家", "父母一直在河南老家住"),
        ("爸妈住在河南老家", "爸妈人在河南老家"),
        ("老婆在银行上班", "媳妇是银行职员"),
        ("老婆在银行上班", "爱人在银行工作"),
        ("老公是医生", "老公在医院当医生"),
        ("姐姐是厨师", "姐姐在饭店当厨师"),
        ("Parents live in Florida", "Mom and dad live down in Florida"),
        ("Parents live in Florida", "Parents are based in Florida"),
        ("Daughter lives in Minneapolis", "Daughter has her place up in Minneapolis"),
        ("Sister has two kids", "Sister has 2 children"),
        ("Sister has two kids", "Sister is a mother of two"),
    ],
)
def test_a_family_fact_of_the_twenty_sixth_probe_said_again_is_not_appended(existing: str, addition: str) -> None:
    """R-WRITE-3 (twenty-sixth probe, held-out bursts): a hobby said as a fan's, a job said as work or with the kind of
    place it is done at, a home said with 人 or after its place, a parent's or the partner's other names, "kids" and
    "children" were appended as parts of the fact they restate."""
    assert append_content(existing, addition) == existing


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        ("Sister has two kids", "Sister has three kids now", "Sister has three kids now"),
        (
            "Parents live in Florida",
            "Parents just moved from Florida to Arizona",
            "Parents just moved from Florida to Arizona",
        ),
        ("Son is an electrician", "Son quit being an electrician", "Son quit being an electrician"),
        ("老婆在银行上班", "老婆从银行辞职了；现在在保险公司上班", "老婆从银行辞职了；现在在保险公司上班"),
        ("妹妹是律师", "妹妹辞职不干律师了", "妹妹辞职不干律师了"),
        # A career changed ends the job held, whatever it was, and only that person's.
        ("老公是医生；老公是四川人", "老公现在改行当律师了", "老公是四川人；老公现在改行当律师了"),
        ("儿子是程序员；女儿是老师", "儿子转行了", "女儿是老师；儿子转行了"),
        # Another employer is not another job, and a chore not done is no job given up.
        ("老公是药剂师", "老公跳槽了", "老公是药剂师；老公跳槽了"),
        ("老婆喜欢做饭", "老婆周末不做饭", "老婆喜欢做饭；老婆周末不做饭"),
        ("爸妈住在河南老家", "爸妈从河南搬过来跟我一起住了", "爸妈从河南搬过来跟我一起住了"),
        # A place left is taken out only where someone lived there.
        (
            "Parents grew up in Florida; Parents live in Florida",
            "Parents just moved from Florida to Arizona",
            "Parents grew up in Florida; Parents just moved from Florida to Arizona",
        ),
    ],
)
def test_a_family_fact_said_to_be_over_leaves_the_fact(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (twenty-sixth probe): a count in words ("two kids" then "three kids") was not restated, and a home
    left or a job quit stayed beside the news that it was over ("Parents live in Florida; Parents just moved from
    Florida to Arizona")."""
    assert append_content(existing, addition) == expected


@pytest.mark.parametrize(
    ("existing", "addition"),
    [
        ("公公有帕金森", "老公的爸爸得了帕金森病"),
        ("公公有帕金森", "公公是帕金森患者"),
        ("婆婆是广东人", "老公他妈妈是广东的"),
        ("婆婆是广东人", "婆婆老家是广东的"),
        ("外公以前是中医", "姥爷以前是个中医大夫"),
        ("外公以前是中医", "外公以前是给人看病的中医"),
        ("Brother-in-law is a firefighter", "Brother-in-law works as a firefighter"),
        ("Niece is in medical school", "Niece is studying at med school"),
        ("Niece is in medical school", "Niece is a medical student"),
    ],
)
def test_a_family_fact_of_the_twenty_seventh_probe_said_again_is_not_appended(existing: str, addition: str) -> None:
    """R-WRITE-3 (twenty-seventh probe, held-out bursts): the partner's parents by their two names, a condition had
    however said, where one is from, a job with its article, "works as", a school however said were appended as parts
    of the fact they restate."""
    assert append_content(existing, addition) == existing


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        ("老婆特别喜欢烘焙", "爱人平时迷烘焙", "老婆特别喜欢烘焙"),
        ("Husband is on a keto diet", "Husband eats keto", "Husband is on a keto diet"),
        ("Husband is on a keto diet", "Husband follows a keto diet", "Husband is on a keto diet"),
        # A diet dropped leaves the fact.
        (
            "Husband is on a keto diet",
            "Husband dropped keto; Husband is vegetarian now",
            "Husband dropped keto; Husband is vegetarian now",
        ),
    ],
)
def test_a_family_fact_of_the_twenty_eighth_probe(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (twenty-eighth probe, held-out bursts): 迷 is a liking, a diet is kept however said, and dropped it is
    over; each was appended as a part of the fact it restates or ends."""
    assert append_content(existing, addition) == expected


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        # A condition diagnosed is had, serving in a branch is being in it, an assisted living home is one place.
        ("Son has ADHD", "Son was diagnosed with ADHD", "Son has ADHD"),
        ("Brother is in the Navy", "Brother serves in the Navy", "Brother is in the Navy"),
        (
            "Mom lives in an assisted living facility",
            "Mom's living in an assisted living home",
            "Mom lives in an assisted living facility",
        ),
        ("外婆有阿尔茨海默症", "外婆得了老年痴呆", "外婆有阿尔茨海默症"),
        ("爸每周要做三次透析", "爸现在一个星期做三次透析", "爸每周要做三次透析"),
        # Another branch, another condition are other facts.
        ("Brother is in the Navy", "Brother serves in the Army", "Brother is in the Navy; Brother serves in the Army"),
        ("Son has ADHD", "Son was diagnosed with autism", "Son has ADHD; Son was diagnosed with autism"),
    ],
)
def test_a_family_fact_of_the_thirtieth_probe(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (thirtieth and thirty-first probes, held-out bursts): each paraphrase was appended to the family fact
    as a second part ("Son has ADHD; Son was diagnosed with ADHD")."""
    assert append_content(existing, addition) == expected


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        # Another job said in English ends the one held; a diet or a habit of the same person stays.
        (
            "Husband is a long-haul truck driver",
            "Husband stopped driving and works as a dispatcher now",
            "Husband stopped driving and works as a dispatcher now",
        ),
        (
            "Wife is an architect",
            "Wife left architecture and teaches high school art now",
            "Wife left architecture and teaches high school art now",
        ),
        ("Sister works as a nurse", "Sister became a doctor", "Sister became a doctor"),
        (
            "Husband is a long-haul truck driver; Husband is a vegetarian",
            "Husband is now a teacher",
            "Husband is a vegetarian; Husband is now a teacher",
        ),
        ("Dad is a smoker", "Dad is now a teacher", "Dad is a smoker; Dad is now a teacher"),
        # 不再做了 and a business closed end what they name.
        ("姐夫是开出租车的", "姐夫不开出租了；现在改跑网约车", "姐夫不开出租了；现在改跑网约车"),
        ("舅舅在老家开了家饭馆", "舅舅把老家的饭馆关了；现在改开民宿了", "舅舅把老家的饭馆关了；现在改开民宿了"),
        ("女儿在学校住校", "女儿不住校了；现在每天回家住", "女儿不住校了；现在每天回家住"),
        ("老公是医生", "老公不开车了", "老公是医生；老公不开车了"),
        # Paraphrases: a family member's other names, a trade, studying abroad, boarding.
        ("Older sister is deaf", "Big sister is deaf", "Older sister is deaf"),
        ("Stepdad is a plumber", "Stepfather works as a plumber", "Stepdad is a plumber"),
        ("Stepdad is a plumber", "Stepdad's a plumber by trade", "Stepdad is a plumber"),
        ("外甥女在澳大利亚留学", "外甥女现在在澳洲读书", "外甥女在澳大利亚留学"),
        ("女儿在学校住校", "闺女是住校生", "女儿在学校住校"),
        ("女儿在学校住校", "女儿平时住在学校宿舍", "女儿在学校住校"),
        ("外甥女在澳大利亚留学", "外甥女在英国读书", "外甥女在澳大利亚留学；外甥女在英国读书"),
    ],
)
def test_a_family_fact_of_the_thirty_second_probe(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (twenty-ninth to thirty-fourth probes, held-out bursts): a family member's new job or a thing stopped
    was appended beside the old value, and these paraphrases as second parts."""
    assert append_content(existing, addition) == expected


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        # A sibling's or a child's partner by their own names; a job said with 当…的.
        ("嫂子是幼儿园老师", "哥的老婆是幼儿园老师", "嫂子是幼儿园老师"),
        ("女婿是警察", "闺女她老公是个警察", "女婿是警察"),
        ("女婿是警察", "女婿是当警察的", "女婿是警察"),
        # A daily amount said per day, and smoking given up ends the sentences of smoking.
        ("爸一天抽一包烟", "爸爸每天都要抽掉一包烟", "爸一天抽一包烟"),
        ("爸一天抽一包烟；爸烟瘾挺大的", "爸终于把烟戒了", "爸终于把烟戒了"),
        # Living on one's own is living alone; Sundays said as 礼拜天 are Sundays.
        ("Grandma lives alone", "Grandma lives on her own", "Grandma lives alone"),
        ("爸每周日去钓鱼", "爸每个礼拜天都去钓鱼", "爸每周日去钓鱼"),
        ("爸每周日去钓鱼", "爸每个礼拜六去钓鱼", "爸每周日去钓鱼；爸每个礼拜六去钓鱼"),
    ],
)
def test_a_family_fact_of_the_thirty_fifth_probe(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (thirty-fifth to thirty-seventh probes, held-out bursts): each was appended as a second part of the
    fact it restates or ends."""
    assert append_content(existing, addition) == expected


def test_a_school_stage_said_with_its_month_replaces_the_stage_held() -> None:
    """R-WRITE-2 (session 41): 「女儿今年9月上小学了」 was appended beside 「女儿在上幼儿园」 (the month made it another
    shape), and 「闺女上幼儿园了」 beside it too."""
    assert append_content("女儿在上幼儿园", "女儿今年9月上小学了") == "女儿今年9月上小学了"
    assert append_content("女儿在上幼儿园", "闺女上幼儿园了") == "女儿在上幼儿园"
    assert append_content("女儿喜欢画画", "女儿9月上小学了") == "女儿喜欢画画；女儿9月上小学了"


def test_an_age_said_with_when_the_birthday_was_replaces_the_age_held() -> None:
    """R-WRITE-2 (session 41): 「儿子上周满7岁了」 was appended beside 「儿子6岁」 (上周 made it another shape)."""
    assert append_content("儿子6岁", "儿子上周满7岁了") == "儿子上周满7岁了"


@pytest.mark.parametrize(
    ("existing", "addition", "expected"),
    [
        # One job, said again in other words: 老公 and 爱人 are one partner.
        ("老公是消防员", "爱人在消防队上班", "老公是消防员"),
        ("老婆是空乘；老婆喜欢瑜伽", "媳妇在航空公司当空乘", "老婆是空乘；老婆喜欢瑜伽"),
        (
            "Girlfriend Naomi is a marine biologist",
            "Girlfriend is a marine biologist",
            "Girlfriend Naomi is a marine biologist",
        ),
        ("Older brother Diego is a welder", "Older brother is a welder", "Older brother Diego is a welder"),
        # Said to be the job now, it takes the held job's place.
        ("老公是消防员", "老公现在在消防队上班", "老公现在在消防队上班"),
        # Something else said of them is no second job, nor a job in no word of the one held.
        ("老公是消防员", "老公是跑步爱好者", "老公是消防员；老公是跑步爱好者"),
        ("Husband is a teacher", "Husband is a big reader", "Husband is a teacher; Husband is a big reader"),
        ("老婆在银行上班", "老婆在医院上班", "老婆在银行上班；老婆在医院上班"),
        # Another member's job is another fact.
        (
            "Older brother Diego is a welder",
            "Younger brother is a nurse",
            "Older brother Diego is a welder; Younger brother is a nurse",
        ),
        ("老公是消防员", "妹妹是护士", "老公是消防员；妹妹是护士"),
    ],
)
def test_a_family_members_job_said_again_is_one_job(existing: str, addition: str, expected: str) -> None:
    """R-WRITE-3 (session 42's held-out bursts): 「老公是消防员；爱人在消防队上班」, "Girlfriend Naomi is a marine biologist;
    Girlfriend is a marine biologist": a second statement of one person's job was appended as a second fact."""
    assert append_content(existing, addition) == expected
