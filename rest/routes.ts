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
  UpdateConsumerCaseDocument,
  UpdateTaskDocument,
} from '../graphql/generated/operations.ts';
import { fromBody, fromPath, fromQuery, route, type RestRoute } from './route.ts';

const page = { page: fromQuery('page', 'int'), limit: fromQuery('limit', 'int') };

/** Every `/v1` endpoint, each a named operation in graphql/operations/. */
export const routes: RestRoute[] = [
  route({
    method: 'POST', path: '/v1/consumer-cases', summary: 'Create a consumer case',
    operation: CreateConsumerCaseDocument,
    variables: { input: fromBody() }, result: 'createConsumerCase', body: 'object', status: 201,
  }),
  route({
    method: 'GET', path: '/v1/consumer-cases', summary: 'List consumer cases',
    operation: ListConsumerCasesDocument,
    variables: { ...page, status: fromQuery('status'), search: fromQuery('search') },
    result: 'consumerCases', body: 'list', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/consumer-cases/:id', summary: 'Get a consumer case',
    operation: GetConsumerCaseDocument,
    variables: { id: fromPath('id') }, result: 'consumerCase', body: 'object', status: 200,
  }),
  route({
    method: 'PATCH', path: '/v1/consumer-cases/:id', summary: 'Update a consumer case',
    operation: UpdateConsumerCaseDocument,
    variables: { id: fromPath('id'), input: fromBody() }, result: 'updateConsumerCase', body: 'object', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/consumer-cases/:id', summary: 'Delete a consumer case',
    operation: DeleteConsumerCaseDocument,
    variables: { id: fromPath('id') }, result: 'deleteConsumerCase', body: 'object', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/business-cases', summary: 'List business cases',
    operation: ListBusinessCasesDocument,
    variables: { ...page }, result: 'businessCases', body: 'list', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/business-cases/:id', summary: 'Get a business case',
    operation: GetBusinessCaseDocument,
    variables: { id: fromPath('id') }, result: 'businessCase', body: 'object', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/tasks', summary: 'Create a task',
    operation: CreateTaskDocument,
    variables: { input: fromBody() }, result: 'createTask', body: 'object', status: 201,
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
    result: 'tasks', body: 'list', status: 200,
  }),
  route({
    method: 'GET', path: '/v1/tasks/:id', summary: 'Get a task',
    operation: GetTaskDocument,
    variables: { id: fromPath('id') }, result: 'task', body: 'object', status: 200,
  }),
  route({
    method: 'PUT', path: '/v1/tasks/:id', summary: 'Update a task',
    operation: UpdateTaskDocument,
    variables: { id: fromPath('id'), input: fromBody() }, result: 'updateTask', body: 'object', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/tasks/:id', summary: 'Delete a task',
    operation: DeleteTaskDocument,
    variables: { id: fromPath('id') }, result: 'deleteTask', body: 'object', status: 200,
  }),
  route({
    method: 'POST', path: '/v1/tasks/:id/assignees', summary: 'Assign a user to a task',
    operation: AddTaskAssigneeDocument,
    variables: { taskId: fromPath('id'), userId: fromBody('userId') }, result: 'addTaskAssignee', body: 'object', status: 200,
  }),
  route({
    method: 'DELETE', path: '/v1/tasks/:id/assignees/:userId', summary: 'Unassign a user from a task',
    operation: RemoveTaskAssigneeDocument,
    variables: { taskId: fromPath('id'), userId: fromPath('userId') }, result: 'removeTaskAssignee', body: 'object', status: 200,
  }),
];
