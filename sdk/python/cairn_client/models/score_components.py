from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScoreComponents")


@_attrs_define
class ScoreComponents:
    """Why a recall result scored as it did.

    Attributes:
        importance (float):
        recency (float): `0.5^(age / 30 days)`.
        confidence (float):
        credibility (float):
        semantic (float | None | Unset): Similarity to the query: the cosine, or, where the memory has two or more runs
            of sentences (`sentence`),
            `CAIRN_SENTENCE_SHARE` (0.75 by default) of the better of the cosine and the best run's plus the rest of the
            cosine; clamped to [0, 1].
        sentence (float | None | Unset): The cosine of the memory's best run of sentences, where it has two or more
            (each run is one or more of
            its sentences, at least eight words, embedded by itself with the memory's speaker label, if any);
            absent otherwise, and in keyword mode.
        keyword (float | None | Unset): Keyword rank relative to the best keyword match, [0, 1].
        relevance (float | None | Unset): The fused query relevance.
        tag_match (float | None | Unset): Share of the requested tags present.
        time_match (float | None | Unset): Match with the time the query names ("in May 2023": 1 inside that period,
            less the further outside)
            or asks about ("when…": 1 when the memory states a time); absent when the query says nothing of time.
        coverage (float | None | Unset): Share of the query's content words (stop words aside, compared by their first
            five letters) the memory
            holds; absent in semantic and associative mode and when the query has only stop words.
        quality (float | None | Unset): The quality score used when `quality_boost` is on.
        rerank (float | None | Unset): The reranker's relevance, when a rerank stage ordered this result; absent
            otherwise.
        neighbour (float | None | Unset): For a memory of an episode: the best score among the other candidates of its
            episode at most its reach
            away — as many places as hold about 80 words of that episode's memories (`CAIRN_NEIGHBOUR_WORDS`), from 2
            for long turns to 8 for short messages — before their own lift, and before a question among them gave
            way (`question`); the memory's score moved 0.4 of the way up to it when it was higher. Absent otherwise.
        question (float | None | Unset): Share of the memory's words in questions (sentences whose closing marks hold a
            question mark followed by
            whitespace or the end of the text), when above 0: a question seldom states what it asks about, so the
            score lost that share times `CAIRN_QUESTION_WEIGHT` (0.05 by default; 0 keeps the score), after the
            neighbour lift. Absent otherwise.
        speaker (float | None | Unset): 1 when the memory is attributed to a person the query names: its text opens with
            their speaker label, as
            a transcript's line does ("Melanie: I play the clarinet" for "What does Melanie play?"; the label is the
            words before a colon followed by whitespace: at most three, each capitalised when more than one, and 40
            characters, on the first line). The score gained `CAIRN_SPEAKER_WEIGHT` (0.05 by default; 0 keeps the
            score; at most 1), after the neighbour lift. Absent otherwise.
    """

    importance: float
    recency: float
    confidence: float
    credibility: float
    semantic: float | None | Unset = UNSET
    sentence: float | None | Unset = UNSET
    keyword: float | None | Unset = UNSET
    relevance: float | None | Unset = UNSET
    tag_match: float | None | Unset = UNSET
    time_match: float | None | Unset = UNSET
    coverage: float | None | Unset = UNSET
    quality: float | None | Unset = UNSET
    rerank: float | None | Unset = UNSET
    neighbour: float | None | Unset = UNSET
    question: float | None | Unset = UNSET
    speaker: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        importance = self.importance

        recency = self.recency

        confidence = self.confidence

        credibility = self.credibility

        semantic: float | None | Unset
        if isinstance(self.semantic, Unset):
            semantic = UNSET
        else:
            semantic = self.semantic

        sentence: float | None | Unset
        if isinstance(self.sentence, Unset):
            sentence = UNSET
        else:
            sentence = self.sentence

        keyword: float | None | Unset
        if isinstance(self.keyword, Unset):
            keyword = UNSET
        else:
            keyword = self.keyword

        relevance: float | None | Unset
        if isinstance(self.relevance, Unset):
            relevance = UNSET
        else:
            relevance = self.relevance

        tag_match: float | None | Unset
        if isinstance(self.tag_match, Unset):
            tag_match = UNSET
        else:
            tag_match = self.tag_match

        time_match: float | None | Unset
        if isinstance(self.time_match, Unset):
            time_match = UNSET
        else:
            time_match = self.time_match

        coverage: float | None | Unset
        if isinstance(self.coverage, Unset):
            coverage = UNSET
        else:
            coverage = self.coverage

        quality: float | None | Unset
        if isinstance(self.quality, Unset):
            quality = UNSET
        else:
            quality = self.quality

        rerank: float | None | Unset
        if isinstance(self.rerank, Unset):
            rerank = UNSET
        else:
            rerank = self.rerank

        neighbour: float | None | Unset
        if isinstance(self.neighbour, Unset):
            neighbour = UNSET
        else:
            neighbour = self.neighbour

        question: float | None | Unset
        if isinstance(self.question, Unset):
            question = UNSET
        else:
            question = self.question

        speaker: float | None | Unset
        if isinstance(self.speaker, Unset):
            speaker = UNSET
        else:
            speaker = self.speaker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "importance": importance,
                "recency": recency,
                "confidence": confidence,
                "credibility": credibility,
            }
        )
        if semantic is not UNSET:
            field_dict["semantic"] = semantic
        if sentence is not UNSET:
            field_dict["sentence"] = sentence
        if keyword is not UNSET:
            field_dict["keyword"] = keyword
        if relevance is not UNSET:
            field_dict["relevance"] = relevance
        if tag_match is not UNSET:
            field_dict["tag_match"] = tag_match
        if time_match is not UNSET:
            field_dict["time_match"] = time_match
        if coverage is not UNSET:
            field_dict["coverage"] = coverage
        if quality is not UNSET:
            field_dict["quality"] = quality
        if rerank is not UNSET:
            field_dict["rerank"] = rerank
        if neighbour is not UNSET:
            field_dict["neighbour"] = neighbour
        if question is not UNSET:
            field_dict["question"] = question
        if speaker is not UNSET:
            field_dict["speaker"] = speaker

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        importance = d.pop("importance")

        recency = d.pop("recency")

        confidence = d.pop("confidence")

        credibility = d.pop("credibility")

        def _parse_semantic(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        semantic = _parse_semantic(d.pop("semantic", UNSET))

        def _parse_sentence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        sentence = _parse_sentence(d.pop("sentence", UNSET))

        def _parse_keyword(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        keyword = _parse_keyword(d.pop("keyword", UNSET))

        def _parse_relevance(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        relevance = _parse_relevance(d.pop("relevance", UNSET))

        def _parse_tag_match(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        tag_match = _parse_tag_match(d.pop("tag_match", UNSET))

        def _parse_time_match(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        time_match = _parse_time_match(d.pop("time_match", UNSET))

        def _parse_coverage(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        coverage = _parse_coverage(d.pop("coverage", UNSET))

        def _parse_quality(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        quality = _parse_quality(d.pop("quality", UNSET))

        def _parse_rerank(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        rerank = _parse_rerank(d.pop("rerank", UNSET))

        def _parse_neighbour(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        neighbour = _parse_neighbour(d.pop("neighbour", UNSET))

        def _parse_question(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        question = _parse_question(d.pop("question", UNSET))

        def _parse_speaker(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        speaker = _parse_speaker(d.pop("speaker", UNSET))

        score_components = cls(
            importance=importance,
            recency=recency,
            confidence=confidence,
            credibility=credibility,
            semantic=semantic,
            sentence=sentence,
            keyword=keyword,
            relevance=relevance,
            tag_match=tag_match,
            time_match=time_match,
            coverage=coverage,
            quality=quality,
            rerank=rerank,
            neighbour=neighbour,
            question=question,
            speaker=speaker,
        )

        score_components.additional_properties = d
        return score_components

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
