import {
  AddTaskAssigneeDocument,
  CreateConsumerCaseDocument,
  CreateTaskDocument,
  DeleteConsumerCaseDocument,
  DeleteTaskDocument,
  GetBusinessCaseDocument,
  GetConsumerCaseDocument,
  GetTaskDocument,
  ListBusinessCasesDocument,
  ListConsumerCasesDocument,
  ListTasksDocument,
  RemoveTaskAssigneeDocument,
  SignedFileUrlDocument,
  UploadPrivateFileDocument,
  UploadPublicFileDocument,
  DeleteFileDocument,
  AnalyzeDocumentAsyncDocument,
  AnalyzeDocumentDocument,
  AnalyzeIdentityDocumentDocument,
  GetAnalysisJobDocument,
  ParseDocumentDocument,
  CreateDocumentDocument,
  DeleteDocumentDocument,
  GetDocumentDocument,
  ListDocumentsDocument,
  UpdateDocumentDocument,
  UpdateConsumerCaseDocument,
  UpdateTaskDocument,
} from '../graphql/generated/operations.ts';
import { fromBody, fromFile, fromPath, fromQuery, fromRequest, route, type RestRoute } from './route.ts';

const page = { page: fromQuery('page', 'int'), limit: fromQuery('limit', 'int') };

/** Every `/v1` endpoint, each a named operation in graphql/operations/. */
export const routes: RestRoute[] = [
  route({
    method: 'POST', path: '/v1/consumer-cases', summary: 'Create a consumer case',
    operation: CreateConsumerCaseDocument,
    variables: { input: fromBody() }, result: 'createConsumerCase', envelope: 'none', status: 201,
  }),
  route({
    method: 'GET', path: '/v1/consumer-cases', summary: 'List consumer cases',
    operation: ListConsumerCasesDocument,
    variables: { ...page, status: fromQuery('status'), search: fromQuery('search') },
    result: 'consumerCases', envelope: 'success', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/consumer-cases/:id', summary: 'Get a consumer case',
    operation: GetConsumerCaseDocument,
    variables: { id: fromPath('id') }, result: 'consumerCase', envelope: 'none', status: 200,
  }),
  route({
    method: 'PATCH', path: '/v1/consumer-cases/:id', summary: 'Update a consumer case',
    operation: UpdateConsumerCaseDocument,
    variables: { id: fromPath('id'), input: fromBody() }, result: 'updateConsumerCase', envelope: 'none', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/consumer-cases/:id', summary: 'Delete a consumer case',
    operation: DeleteConsumerCaseDocument,
    variables: { id: fromPath('id') }, result: 'deleteConsumerCase', envelope: 'none', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/business-cases', summary: 'List business cases',
    operation: ListBusinessCasesDocument,
    variables: { ...page }, result: 'businessCases', envelope: 'success', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/business-cases/:id', summary: 'Get a business case',
    operation: GetBusinessCaseDocument,
    variables: { id: fromPath('id') }, result: 'businessCase', envelope: 'none', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/tasks', summary: 'Create a task',
    operation: CreateTaskDocument,
    variables: { input: fromBody() }, result: 'createTask', envelope: 'none', status: 201,
  }),
  route({
    method: 'GET', path: '/v1/tasks', summary: 'List tasks',
    operation: ListTasksDocument,
    variables: {
      ...page,
      status: fromQuery('status'),
      priority: fromQuery('priority'),
      businessCaseId: fromQuery('businessCaseId'),
      consumerCaseId: fromQuery('consumerCaseId'),
      assigneeId: fromQuery('assigneeId'),
      search: fromQuery('search'),
    },
    result: 'tasks', envelope: 'success', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/tasks/:id', summary: 'Get a task',
    operation: GetTaskDocument,
    variables: { id: fromPath('id') }, result: 'task', envelope: 'none', status: 200,
  }),
  route({
    method: 'PUT', path: '/v1/tasks/:id', summary: 'Update a task',
    operation: UpdateTaskDocument,
    variables: { id: fromPath('id'), input: fromBody() }, result: 'updateTask', envelope: 'none', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/tasks/:id', summary: 'Delete a task',
    operation: DeleteTaskDocument,
    variables: { id: fromPath('id') }, result: 'deleteTask', envelope: 'none', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/tasks/:id/assignees', summary: 'Assign a user to a task',
    operation: AddTaskAssigneeDocument,
    variables: { taskId: fromPath('id'), userId: fromBody('userId') }, result: 'addTaskAssignee', envelope: 'none', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/tasks/:id/assignees/:userId', summary: 'Unassign a user from a task',
    operation: RemoveTaskAssigneeDocument,
    variables: { taskId: fromPath('id'), userId: fromPath('userId') }, result: 'removeTaskAssignee', envelope: 'none', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/files/upload/public', summary: 'Upload a public file',
    operation: UploadPublicFileDocument,
    variables: { file: fromFile('file') }, result: 'uploadPublicFile', envelope: 'success', status: 201,
  }),
  route({
    method: 'POST', path: '/v1/files/upload/private', summary: 'Upload a private file',
    operation: UploadPrivateFileDocument,
    variables: { file: fromFile('file') }, result: 'uploadPrivateFile', envelope: 'success', status: 201,
  }),
  route({
    method: 'GET', path: '/v1/files/signed-url', summary: 'Get a signed download URL',
    operation: SignedFileUrlDocument,
    variables: { key: fromQuery('key'), expiresIn: fromQuery('expiresIn', 'int') },
    result: 'signedFileUrl', envelope: 'success', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/files/*key', summary: 'Delete a file (the key as it is, slashes included)',
    operation: DeleteFileDocument,
    variables: { key: fromPath('key') }, result: 'deleteFile', envelope: 'success', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/documents', summary: 'Register an uploaded file as a document',
    operation: CreateDocumentDocument,
    variables: { input: fromBody() }, result: 'createDocument', envelope: 'none', status: 201,
  }),
  route({
    method: 'GET', path: '/v1/documents', summary: 'List documents',
    operation: ListDocumentsDocument,
    variables: {
      ...page,
      type: fromQuery('type'),
      status: fromQuery('status'),
      consumerCaseId: fromQuery('consumerCaseId'),
      businessCaseId: fromQuery('businessCaseId'),
      search: fromQuery('search'),
    },
    result: 'documents', envelope: 'success', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/documents/:id', summary: 'Get a document',
    operation: GetDocumentDocument,
    variables: { id: fromPath('id') }, result: 'document', envelope: 'none', status: 200,
  }),
  route({
    method: 'PATCH', path: '/v1/documents/:id', summary: 'Update a document',
    operation: UpdateDocumentDocument,
    variables: { id: fromPath('id'), input: fromBody() }, result: 'updateDocument', envelope: 'none', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/documents/:id', summary: 'Delete a document (and its file unless shared or keepFile=true)',
    operation: DeleteDocumentDocument,
    variables: { id: fromPath('id'), keepFile: fromQuery('keepFile', 'boolean') },
    result: 'deleteDocument', envelope: 'none', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/document-analysis/analyze', summary: 'Extract text and layout of a stored file now',
    operation: AnalyzeDocumentDocument,
    variables: { fileKey: fromBody('fileKey') }, result: 'analyzeDocument', envelope: 'data', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/document-analysis/analyze-async', summary: 'Run a detailed analysis as a queued job',
    operation: AnalyzeDocumentAsyncDocument,
    variables: {
      fileKey: fromBody('fileKey'),
      // `Prefer: respond-async` or `?wait=false`: answer 202 at once with the job id.
      wait: fromRequest(['wait'], ({ query, headers }) => {
        if (/\brespond-async\b/i.test(String(headers.prefer ?? ''))) return false;
        // Anything but true/false reaches GraphQL as it is and is refused there (400).
        return query.wait === 'true' ? true : query.wait === 'false' ? false : query.wait;
      }),
    },
    result: 'analyzeDocumentAsync', envelope: 'data',
    status: (analysis: { status: string }) => (analysis.status === 'SUCCEEDED' ? 200 : 202),
  }),
  route({
    method: 'GET', path: '/v1/document-analysis/jobs/:jobId', summary: 'Status (and, when done, result) of an analysis job',
    operation: GetAnalysisJobDocument,
    variables: { jobId: fromPath('jobId') }, result: 'documentAnalysis', envelope: 'data', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/document-analysis/parse/:fileKey', summary: 'Text and counts of a stored file (key percent-encoded)',
    operation: ParseDocumentDocument,
    variables: { fileKey: fromPath('fileKey') }, result: 'parseDocument', envelope: 'data', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/document-analysis/analyze-id', summary: 'Identity fields of a passport or ID card',
    operation: AnalyzeIdentityDocumentDocument,
    variables: { fileKey: fromBody('fileKey') }, result: 'analyzeIdentityDocument', envelope: 'data', status: 200,
  }),
];
