"""Contains all the data models used in inputs/outputs"""

from .actor_scope import ActorScope
from .admin_identity import AdminIdentity
from .api_key_info import ApiKeyInfo
from .associated import Associated
from .association import Association
from .association_batch import AssociationBatch
from .association_batch_input import AssociationBatchInput
from .association_input import AssociationInput
from .association_input_properties import AssociationInputProperties
from .association_input_type import AssociationInputType
from .association_item import AssociationItem
from .association_properties import AssociationProperties
from .association_stored import AssociationStored
from .audit_entry import AuditEntry
from .audit_entry_details import AuditEntryDetails
from .audit_page import AuditPage
from .auto_mem_batch import AutoMemBatch
from .auto_mem_batch_stored import AutoMemBatchStored
from .auto_mem_memory import AutoMemMemory
from .auto_mem_memory_page import AutoMemMemoryPage
from .automem_recall_mode import AutomemRecallMode
from .automem_recall_sort import AutomemRecallSort
from .automem_recall_tag_match import AutomemRecallTagMatch
from .automem_recall_tag_mode import AutomemRecallTagMode
from .batch_input import BatchInput
from .batch_item import BatchItem
from .batch_stored import BatchStored
from .by_tag_page import ByTagPage
from .by_tag_response import ByTagResponse
from .compact_entity import CompactEntity
from .compact_memory import CompactMemory
from .compact_recall import CompactRecall
from .connection import Connection
from .connection_input import ConnectionInput
from .connection_input_properties import ConnectionInputProperties
from .connection_page import ConnectionPage
from .connection_properties import ConnectionProperties
from .connections_deleted import ConnectionsDeleted
from .consolidate_params import ConsolidateParams
from .consolidate_params_mode import ConsolidateParamsMode
from .consolidate_params_time_horizon import ConsolidateParamsTimeHorizon
from .consolidate_response import ConsolidateResponse
from .consolidation_mode import ConsolidationMode
from .consolidation_queued import ConsolidationQueued
from .consolidation_status import ConsolidationStatus
from .context_params import ContextParams
from .context_response import ContextResponse
from .created_key import CreatedKey
from .deleted import Deleted
from .deleted_by_tag import DeletedByTag
from .embedding_counts import EmbeddingCounts
from .end_user_usage import EndUserUsage
from .end_user_usage_page import EndUserUsagePage
from .endpoint_params import EndpointParams
from .endpoint_params_event_types_type_0_item import EndpointParamsEventTypesType0Item
from .endpoint_patch import EndpointPatch
from .endpoint_patch_event_types_type_0_item import EndpointPatchEventTypesType0Item
from .entity import Entity
from .entity_detail import EntityDetail
from .entity_page import EntityPage
from .episode_edge import EpisodeEdge
from .episode_response import EpisodeResponse
from .error_body import ErrorBody
from .eval_params import EvalParams
from .eval_params_mode import EvalParamsMode
from .eval_params_probes_type_0_item import EvalParamsProbesType0Item
from .eval_run import EvalRun
from .eval_run_page import EvalRunPage
from .expansion import Expansion
from .expected_rank import ExpectedRank
from .forgotten import Forgotten
from .forgotten_by_tags import ForgottenByTags
from .got_memory import GotMemory
from .grouped_params import GroupedParams
from .grouped_params_entity_types_item import GroupedParamsEntityTypesItem
from .grouped_params_search_mode import GroupedParamsSearchMode
from .health import Health
from .history import History
from .import_result import ImportResult
from .import_result_errors_item import ImportResultErrorsItem
from .import_result_inserted import ImportResultInserted
from .import_result_skipped import ImportResultSkipped
from .job_failure import JobFailure
from .job_status import JobStatus
from .key_list import KeyList
from .live import Live
from .login import Login
from .mcp_request import McpRequest
from .mcp_response import McpResponse
from .memory import Memory
from .memory_event import MemoryEvent
from .memory_event_after import MemoryEventAfter
from .memory_event_before import MemoryEventBefore
from .memory_id_response import MemoryIdResponse
from .memory_input import MemoryInput
from .memory_input_memory_type import MemoryInputMemoryType
from .memory_input_metadata import MemoryInputMetadata
from .memory_input_on_duplicate import MemoryInputOnDuplicate
from .memory_input_source_type import MemoryInputSourceType
from .memory_input_supersede_relation import MemoryInputSupersedeRelation
from .memory_input_type import MemoryInputType
from .memory_metadata import MemoryMetadata
from .memory_page import MemoryPage
from .memory_patch import MemoryPatch
from .memory_patch_memory_type import MemoryPatchMemoryType
from .memory_patch_metadata import MemoryPatchMetadata
from .memory_patch_source_type import MemoryPatchSourceType
from .memory_patch_type import MemoryPatchType
from .memory_relation import MemoryRelation
from .memory_with_relations import MemoryWithRelations
from .merge_request import MergeRequest
from .minted_token import MintedToken
from .new_key import NewKey
from .new_token import NewToken
from .path_step import PathStep
from .periodic_job import PeriodicJob
from .pipeline_counts import PipelineCounts
from .plan import Plan
from .plan_limits import PlanLimits
from .plan_list import PlanList
from .probe_result import ProbeResult
from .probe_set import ProbeSet
from .probe_set_deleted import ProbeSetDeleted
from .probe_set_params import ProbeSetParams
from .probe_set_params_mode import ProbeSetParamsMode
from .probe_set_params_probes_item import ProbeSetParamsProbesItem
from .probe_set_probe import ProbeSetProbe
from .probe_sets import ProbeSets
from .purged import Purged
from .queue_counts import QueueCounts
from .queue_load import QueueLoad
from .recall_answer import RecallAnswer
from .recall_hit import RecallHit
from .recall_params import RecallParams
from .recall_params_memory_type import RecallParamsMemoryType
from .recall_params_mode import RecallParamsMode
from .recall_params_sort import RecallParamsSort
from .recall_params_state_mode import RecallParamsStateMode
from .recall_params_tag_match import RecallParamsTagMatch
from .recall_params_tag_mode import RecallParamsTagMode
from .recall_query_get_memory_type import RecallQueryGetMemoryType
from .recall_query_get_mode import RecallQueryGetMode
from .recall_query_get_sort import RecallQueryGetSort
from .recall_query_get_state_mode import RecallQueryGetStateMode
from .recall_query_get_tag_match import RecallQueryGetTagMatch
from .recall_query_get_tag_mode import RecallQueryGetTagMode
from .recall_response import RecallResponse
from .recall_result import RecallResult
from .reembed_request import ReembedRequest
from .reembedded import Reembedded
from .refresh import Refresh
from .related_answer import RelatedAnswer
from .related_memory import RelatedMemory
from .related_response import RelatedResponse
from .remembered import Remembered
from .report import Report
from .reprocess_request import ReprocessRequest
from .reprocessed import Reprocessed
from .restored_by_tag import RestoredByTag
from .rotate_key import RotateKey
from .rotated_key import RotatedKey
from .run_record import RunRecord
from .run_record_report import RunRecordReport
from .scheduled_mode import ScheduledMode
from .score_components import ScoreComponents
from .scored_memory import ScoredMemory
from .search_request import SearchRequest
from .service_jobs import ServiceJobs
from .settings_patch import SettingsPatch
from .shodh_consolidate_request import ShodhConsolidateRequest
from .shodh_consolidated import ShodhConsolidated
from .shodh_error import ShodhError
from .shodh_error_details import ShodhErrorDetails
from .shodh_patch import ShodhPatch
from .shodh_patch_metadata import ShodhPatchMetadata
from .shodh_recall_request import ShodhRecallRequest
from .shodh_recall_response import ShodhRecallResponse
from .shodh_stats import ShodhStats
from .stored import Stored
from .stored_metadata import StoredMetadata
from .suspend_body import SuspendBody
from .tag_list import TagList
from .tags_request import TagsRequest
from .tenant_body import TenantBody
from .tenant_body_limits import TenantBodyLimits
from .tenant_detail import TenantDetail
from .tenant_detail_deletion_report import TenantDetailDeletionReport
from .tenant_detail_limits import TenantDetailLimits
from .tenant_page import TenantPage
from .tenant_settings import TenantSettings
from .tenant_stats import TenantStats
from .time_horizon import TimeHorizon
from .token_pair import TokenPair
from .trash_page import TrashPage
from .trashed_memory import TrashedMemory
from .type_count import TypeCount
from .usage_day import UsageDay
from .usage_day_counters import UsageDayCounters
from .usage_report import UsageReport
from .usage_report_limits import UsageReportLimits
from .usage_report_totals import UsageReportTotals
from .verbose_entity import VerboseEntity
from .verbose_memory import VerboseMemory
from .verbose_recall import VerboseRecall
from .webhook import Webhook
from .webhook_deleted import WebhookDeleted
from .webhook_delivery import WebhookDelivery
from .webhook_delivery_page import WebhookDeliveryPage
from .webhook_list import WebhookList

__all__ = (
    "ActorScope",
    "AdminIdentity",
    "ApiKeyInfo",
    "Associated",
    "Association",
    "AssociationBatch",
    "AssociationBatchInput",
    "AssociationInput",
    "AssociationInputProperties",
    "AssociationInputType",
    "AssociationItem",
    "AssociationProperties",
    "AssociationStored",
    "AuditEntry",
    "AuditEntryDetails",
    "AuditPage",
    "AutoMemBatch",
    "AutoMemBatchStored",
    "AutoMemMemory",
    "AutoMemMemoryPage",
    "AutomemRecallMode",
    "AutomemRecallSort",
    "AutomemRecallTagMatch",
    "AutomemRecallTagMode",
    "BatchInput",
    "BatchItem",
    "BatchStored",
    "ByTagPage",
    "ByTagResponse",
    "CompactEntity",
    "CompactMemory",
    "CompactRecall",
    "Connection",
    "ConnectionInput",
    "ConnectionInputProperties",
    "ConnectionPage",
    "ConnectionProperties",
    "ConnectionsDeleted",
    "ConsolidateParams",
    "ConsolidateParamsMode",
    "ConsolidateParamsTimeHorizon",
    "ConsolidateResponse",
    "ConsolidationMode",
    "ConsolidationQueued",
    "ConsolidationStatus",
    "ContextParams",
    "ContextResponse",
    "CreatedKey",
    "Deleted",
    "DeletedByTag",
    "EmbeddingCounts",
    "EndpointParams",
    "EndpointParamsEventTypesType0Item",
    "EndpointPatch",
    "EndpointPatchEventTypesType0Item",
    "EndUserUsage",
    "EndUserUsagePage",
    "Entity",
    "EntityDetail",
    "EntityPage",
    "EpisodeEdge",
    "EpisodeResponse",
    "ErrorBody",
    "EvalParams",
    "EvalParamsMode",
    "EvalParamsProbesType0Item",
    "EvalRun",
    "EvalRunPage",
    "Expansion",
    "ExpectedRank",
    "Forgotten",
    "ForgottenByTags",
    "GotMemory",
    "GroupedParams",
    "GroupedParamsEntityTypesItem",
    "GroupedParamsSearchMode",
    "Health",
    "History",
    "ImportResult",
    "ImportResultErrorsItem",
    "ImportResultInserted",
    "ImportResultSkipped",
    "JobFailure",
    "JobStatus",
    "KeyList",
    "Live",
    "Login",
    "McpRequest",
    "McpResponse",
    "Memory",
    "MemoryEvent",
    "MemoryEventAfter",
    "MemoryEventBefore",
    "MemoryIdResponse",
    "MemoryInput",
    "MemoryInputMemoryType",
    "MemoryInputMetadata",
    "MemoryInputOnDuplicate",
    "MemoryInputSourceType",
    "MemoryInputSupersedeRelation",
    "MemoryInputType",
    "MemoryMetadata",
    "MemoryPage",
    "MemoryPatch",
    "MemoryPatchMemoryType",
    "MemoryPatchMetadata",
    "MemoryPatchSourceType",
    "MemoryPatchType",
    "MemoryRelation",
    "MemoryWithRelations",
    "MergeRequest",
    "MintedToken",
    "NewKey",
    "NewToken",
    "PathStep",
    "PeriodicJob",
    "PipelineCounts",
    "Plan",
    "PlanLimits",
    "PlanList",
    "ProbeResult",
    "ProbeSet",
    "ProbeSetDeleted",
    "ProbeSetParams",
    "ProbeSetParamsMode",
    "ProbeSetParamsProbesItem",
    "ProbeSetProbe",
    "ProbeSets",
    "Purged",
    "QueueCounts",
    "QueueLoad",
    "RecallAnswer",
    "RecallHit",
    "RecallParams",
    "RecallParamsMemoryType",
    "RecallParamsMode",
    "RecallParamsSort",
    "RecallParamsStateMode",
    "RecallParamsTagMatch",
    "RecallParamsTagMode",
    "RecallQueryGetMemoryType",
    "RecallQueryGetMode",
    "RecallQueryGetSort",
    "RecallQueryGetStateMode",
    "RecallQueryGetTagMatch",
    "RecallQueryGetTagMode",
    "RecallResponse",
    "RecallResult",
    "Reembedded",
    "ReembedRequest",
    "Refresh",
    "RelatedAnswer",
    "RelatedMemory",
    "RelatedResponse",
    "Remembered",
    "Report",
    "Reprocessed",
    "ReprocessRequest",
    "RestoredByTag",
    "RotatedKey",
    "RotateKey",
    "RunRecord",
    "RunRecordReport",
    "ScheduledMode",
    "ScoreComponents",
    "ScoredMemory",
    "SearchRequest",
    "ServiceJobs",
    "SettingsPatch",
    "ShodhConsolidated",
    "ShodhConsolidateRequest",
    "ShodhError",
    "ShodhErrorDetails",
    "ShodhPatch",
    "ShodhPatchMetadata",
    "ShodhRecallRequest",
    "ShodhRecallResponse",
    "ShodhStats",
    "Stored",
    "StoredMetadata",
    "SuspendBody",
    "TagList",
    "TagsRequest",
    "TenantBody",
    "TenantBodyLimits",
    "TenantDetail",
    "TenantDetailDeletionReport",
    "TenantDetailLimits",
    "TenantPage",
    "TenantSettings",
    "TenantStats",
    "TimeHorizon",
    "TokenPair",
    "TrashedMemory",
    "TrashPage",
    "TypeCount",
    "UsageDay",
    "UsageDayCounters",
    "UsageReport",
    "UsageReportLimits",
    "UsageReportTotals",
    "VerboseEntity",
    "VerboseMemory",
    "VerboseRecall",
    "Webhook",
    "WebhookDeleted",
    "WebhookDelivery",
    "WebhookDeliveryPage",
    "WebhookList",
)
